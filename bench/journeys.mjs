// The journeys people wait on that the other benches do not cover (issue 28 item 8), each a ratio
// within this run:
// - CLI, in process on one data directory: `spaces create` and `cr merge` of a change request
//   that edits 200 pages against `spaces list`; `openapi put --wait` of the GitBook spec (1.7 MB),
//   `search` and `docs mcp` (start, tools/list, one tools/call) against `node -e 0`;
// - `docs serve` on the same store: the first request of each area after start against the same
//   request warm (issue 28 item 1: "the first request of any operation to a fresh docs serve
//   <= 2x its warm latency"), on kept-alive connections and each on a new connection, and a bare
//   node:http server's first request the same way;
// - the peers: json-server 0.17 (1,000 and 50,000 records) and Stoplight Prism's mock of the spec
//   answering the same GET at 32 connections, against `docs serve`.
//
//   node bench/journeys.mjs [--quick]       (alone; `npm run bench` runs it too)
//   node bench/journeys.mjs --only=serve [--bin=OTHER/bin/run.cjs] [--rounds=N]
//     (each round: two fresh servers, the first requests on kept-alive connections, then each on
//     a new connection; a bare node:http server's first request the same way, the floor)
//   node bench/journeys.mjs --only=peers [--bin=OTHER/bin/run.cjs] [--quick]   (the peers alone, one space)
//     the server's rows alone on a store of one 200-page space (seeded with the CLI, its search
//     index built), with `docs` from another checkout's build to compare (A/B), N fresh servers
import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { writeFolder } from './content-cli.mjs';
import {
  BIN,
  ROOT,
  againstNode,
  childEnv,
  compareCommands,
  cpuSeconds,
  load,
  median,
  startBareServer,
  removeDir,
  startChild,
  startDocsServe,
  stopChild,
  tempDir,
  timeNode,
} from './lib.mjs';
import { seedSpaces } from './seed.mjs';

const TOKEN = 'bench-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SPEC = (alias) => join(ROOT, 'node_modules', alias, 'spec', 'openapi.json');
const json = (out) => JSON.parse(out);
const fmt = (x) => `${x.toFixed(2)}x`;

/** ms from spawning `docs mcp` to the answer of request `untilId` of `messages`; the answer. */
function mcpSession(env, dataDir, messages, untilId) {
  const lines = messages.map((m) => JSON.stringify(m)).join('\n') + '\n';
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'mcp', '--data', dataDir], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes(`"id":${untilId}`));
      if (!line || done) return;
      done = true;
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      child.kill();
      resolve({ ms, answer: JSON.parse(line) });
    });
    child.on('exit', (code) => done || reject(new Error(`docs mcp exited ${code} before answering: ${err}`)));
    child.stdin.write(lines);
  });
}

async function cliJourneys({ env, record, log, runs, data }) {
  const cli = (...args) => timeNode([BIN, ...args, '--data', data], env);
  const list = [BIN, 'spaces', 'list', '--json', '--data', data];
  const org = json(cli('orgs', 'list', '--json').stdout).items[0].id;
  const space = json(cli('spaces', 'create', '--title', 'Journeys', '--json').stdout).id;
  const folder = writeFolder(tempDir('journeys-folder'), 200);
  const first = json(cli('content', 'push', folder, '--space', space, '--merge', '--json').stdout);
  if (first.added !== 200) throw new Error(`the first push added ${first.added} pages`);

  log(`\n[journeys] spaces create vs spaces list, ${runs} runs each, alternating`);
  {
    const r = compareCommands([BIN, 'spaces', 'create', '--title', 'Journey space', '--json', '--data', data], list, env, {
      runs,
      checkA: (out) => json(out).object === 'space' || fail(`spaces create: ${out.slice(0, 200)}`),
    });
    record('CLI spaces create / spaces list', r.ratio, {
      target: '<= 1.3',
      pass: r.ratio <= 1.3,
      context: `median ${r.aMs.toFixed(1)} vs ${r.bMs.toFixed(1)} ms`,
    });
  }

  log(`\n[journeys] cr merge of a change request editing 200 pages vs spaces list, ${runs} runs each, alternating`);
  {
    // Before each merge (untimed): every page gets a line, pushed without --merge (a change request).
    const merge = [BIN, 'cr', 'merge', space, 'CR', '--json', '--data', data];
    const r = compareCommands(merge, list, env, {
      runs,
      beforeA: (i) => {
        for (const f of pagesOf(folder)) appendFileSync(f, `\nJourney edit ${i}.\n`);
        const pushed = json(cli('content', 'push', folder, '--space', space, '--json').stdout);
        if (pushed.updated !== 200) throw new Error(`the push before a merge updated ${pushed.updated} pages`);
        merge[4] = pushed.changeRequest;
      },
      checkA: (out) => json(out).merged === true || json(out).status === 'merged' || json(out).revision || fail(`cr merge: ${out.slice(0, 200)}`),
    });
    record('CLI cr merge, 200 pages changed / spaces list', r.ratio, {
      target: 'report',
      pass: true,
      context: `median ${r.aMs.toFixed(1)} vs ${r.bMs.toFixed(1)} ms (the one-line push with merge has its target in [content])`,
    });
  }

  log(`\n[journeys] openapi put --wait of the GitBook spec (1.2 and 1.7 MB in turn) vs node -e 0, ${runs} runs each`);
  {
    // Alternating two versions: each put stores and processes a new version, as a CI publish does.
    const put = [BIN, 'openapi', 'put', 'gitbook', '--file', 'FILE', '--wait', '--json', '--data', data];
    const r = compareCommands(put, ['-e', '0'], env, {
      runs,
      beforeA: (i) => (put[5] = SPEC(i % 2 ? 'gitbook-api-0146' : 'gitbook-api-latest')),
      checkA: (out) => json(out).spec?.processingState === 'complete' || fail(`openapi put: ${out.slice(0, 300)}`),
    });
    record('CLI openapi put --wait, 1.7 MB spec / node -e 0', r.ratio, {
      target: 'report',
      pass: true,
      context: `median ${r.aMs.toFixed(1)} vs ${r.bMs.toFixed(1)} ms`,
    });
  }

  log(`\n[journeys] search of a space (200 pages) and of the organization vs spaces list, ${runs} runs each`);
  for (const [label, extra] of [
    ['space', ['--space', space]],
    ['organization', []],
  ]) {
    const r = compareCommands([BIN, 'search', 'section page', ...extra, '--json', '--data', data], list, env, {
      runs,
      checkA: (out) => (json(out).items ?? json(out)).length > 0 || fail(`search: ${out.slice(0, 200)}`),
    });
    record(`CLI search (${label}) / spaces list`, r.ratio, { target: 'report', pass: true, context: `median ${r.aMs.toFixed(1)} vs ${r.bMs.toFixed(1)} ms` });
  }

  log(`\n[journeys] docs mcp: start to tools/list, and to one tools/call (list the organization's spaces), vs node -e 0`);
  {
    const init = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const toolsList = await againstNode(env, runs, async () => {
      const r = await mcpSession(env, data, [...init, { jsonrpc: '2.0', id: 2, method: 'tools/list' }], 2);
      if (!r.answer.result?.tools?.length) fail(`tools/list: ${JSON.stringify(r.answer).slice(0, 200)}`);
      return r.ms;
    });
    record('MCP start to tools/list / node -e 0', toolsList.ratio, {
      target: '<= 4',
      pass: toolsList.ratio <= 4,
      context: `median ${toolsList.cmdMs.toFixed(1)} vs ${toolsList.baseMs.toFixed(1)} ms`,
    });
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'listSpacesInOrganizationById', arguments: { organizationId: org } } };
    const oneCall = await againstNode(env, runs, async () => {
      const r = await mcpSession(env, data, [...init, call], 3);
      if (r.answer.error || r.answer.result?.isError) fail(`tools/call: ${JSON.stringify(r.answer).slice(0, 300)}`);
      return r.ms;
    });
    record('MCP start to one tools/call (list spaces) / node -e 0', oneCall.ratio, {
      target: 'report',
      pass: true,
      context: `median ${oneCall.cmdMs.toFixed(1)} vs ${oneCall.baseMs.toFixed(1)} ms`,
    });
  }
  removeDir(folder);
  return { org, space };
}

function pagesOf(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => String(f).endsWith('.md'))
    .map((f) => join(dir, String(f)));
}

function fail(message) {
  throw new Error(message);
}

/** ms of CPU the main thread of process `pid` has run so far (schedstat: ns on a CPU); NaN elsewhere. */
function mainThreadCpuMs(pid) {
  if (!pid) return Number.NaN;
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** One request: its wall ms and, with `pid`, the ms of CPU the server's main thread ran meanwhile. */
async function timedGet(url, init = {}, pid = undefined) {
  const c0 = mainThreadCpuMs(pid);
  const t0 = process.hrtime.bigint();
  const res = await fetch(url, { ...init, headers: { ...AUTH, ...(init.headers ?? {}) } });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = mainThreadCpuMs(pid) - c0;
  if (res.status >= 400) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return { ms, cpu, text };
}

/**
 * One fetch against a throwaway server of this process: the first fetch of a process loads the
 * client itself (undici, ~250 ms), which must not be counted as the server's first request.
 */
async function warmClient() {
  const { createServer } = await import('node:http');
  const s = createServer((_, res) => res.end('ok'));
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  for (let i = 0; i < 3; i++) await (await fetch(`http://127.0.0.1:${s.address().port}/`)).text();
  await new Promise((r) => s.close(r));
}

/**
 * A dispatcher of its own for one request, so that it opens a new connection: an Agent of the
 * undici that `fetch` itself runs (the global dispatcher's class once `warmClient` made it), so
 * that the client and the headers it sends are the same as on the kept-alive connections.
 */
function newConnection() {
  const Agent = globalThis[Symbol.for('undici.globalDispatcher.1')]?.constructor;
  if (!Agent) throw new Error('no global dispatcher: call warmClient() first');
  return new Agent();
}

/** `timedGet` on a connection of its own, closed after; the server is given a moment to see it closed. */
async function timedGetNewConnection(url, init, pid) {
  const dispatcher = newConnection();
  try {
    return await timedGet(url, { ...init, dispatcher }, pid);
  } finally {
    await dispatcher.destroy();
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The medians of `n` runs of `once()` (each `{ ms, cpu }`). */
async function medians(n, once) {
  const ms = [];
  const cpu = [];
  for (let k = 0; k < n; k++) {
    const r = await once();
    ms.push(r.ms);
    cpu.push(r.cpu);
  }
  return { ms: median(ms), cpu: median(cpu) };
}

/** The areas of `firstRequests`: [label, url, init]. */
function serveAreas(url, org, space) {
  const v1 = `${url}/v1`;
  return [
    ['user', `${v1}/user`],
    ['organizations', `${v1}/orgs/${org}`],
    ['spaces list', `${v1}/orgs/${org}/spaces`],
    ['space', `${v1}/spaces/${space}`],
    ['content: pages', `${v1}/spaces/${space}/content`],
    ['change requests', `${v1}/spaces/${space}/change-requests`],
    ['comments', `${v1}/spaces/${space}/comments`],
    ['search', `${v1}/spaces/${space}/search?query=section`],
    ['openapi', `${v1}/orgs/${org}/openapi`],
    ['sites', `${v1}/orgs/${org}/sites`],
    ['members', `${v1}/orgs/${org}/members`],
    ['collections', `${v1}/orgs/${org}/collections`],
    ['write: PATCH space', `${v1}/spaces/${space}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"title":"Journeys"}' }],
  ];
}

const cpuContext = (first, warm) =>
  `${first.ms.toFixed(1)} vs ${warm.ms.toFixed(2)} ms; main thread CPU ${first.cpu.toFixed(2)} vs ${warm.cpu.toFixed(2)} ms (${(first.cpu / warm.cpu).toFixed(1)}x); load ${loadavg()[0].toFixed(1)}`;

/**
 * Fresh servers, one request per area each, first after the server's start, then the same
 * request warm (medians of `warm`); each server closes before the next starts, so each but the
 * first after the seeding finds the prewarm record of the one before (server/prewarm.ts):
 * - keep-alive: the first requests in turn on `fetch`'s kept-alive connections, the warm ones
 *   too. Its first request, and the second (undici's pool opens a second connection while the
 *   first is being released), arrive on new connections, the rest on reused ones; reported.
 * - new connections (the issue's target, <= 2, on the median of `servers` servers): each first
 *   request on a connection of its own, and each warm one too. A first request to a fresh server
 *   arrives on a new connection; against a warm request on a kept-alive one it pays the
 *   connection (accepted, its socket set up, closed: ~0.2–0.4 ms of the server's CPU, a bare
 *   node:http server's too, `bareFirstRequests`), which no work of the server before ready can
 *   take. Compared like with like, the ratio is the server's own first-time work.
 */
async function firstRequests({ env, record, log, data, org, space, warm, servers = 5, bin = BIN }) {
  await warmClient();
  // Each area of one fresh server: its first request, then the same request warm (medians of
  // `warm`). The server's main thread CPU too (/proc, Linux): on a loaded machine wall times
  // mostly measure the other work; the CPU a request made the server run is what the build changes.
  const measure = async (get) => {
    const server = await startDocsServe(data, env, bin);
    const areas = serveAreas(server.url, org, space);
    const firsts = [];
    for (const [, url, init] of areas) firsts.push(await get(url, init, server.pid));
    const rows = [];
    for (const [i, [label, url, init]] of areas.entries()) rows.push({ label, first: firsts[i], warm: await medians(warm, () => get(url, init, server.pid)) });
    return { server, rows };
  };
  log(`\n[journeys] docs serve: the first request of each area after start vs the same request warm (median of ${warm}), kept-alive connections`);
  const kept = await measure(timedGet);
  for (const { label, first, warm: w } of kept.rows)
    record(`serve first request after start / warm: ${label}`, first.ms / w.ms, { target: 'report', pass: true, context: cpuContext(first, w) });
  await stopChild(kept.server.child);
  // The target's rows: a single first request is one sample, and on a shared machine one sample
  // of ~1 ms moves by half between fresh servers of one build (a bare node:http server's too), so
  // each area is judged on the median over `servers` fresh servers (the first request's wall time
  // over its warm one's, each server's own), each server's ratio in the context.
  log(`\n[journeys] docs serve: the same, each request on a new connection, ${servers} fresh servers, judged on the median`);
  const runs = [];
  for (let i = 0; i < servers; i++) {
    const run = await measure(timedGetNewConnection);
    runs.push(run);
    if (i < servers - 1) await stopChild(run.server.child);
  }
  for (const [i, { label }] of runs[0].rows.entries()) {
    const each = runs.map((r) => r.rows[i]);
    const ratio = median(each.map((r) => r.first.ms / r.warm.ms));
    const cpuFirst = median(each.map((r) => r.first.cpu));
    const cpuWarm = median(each.map((r) => r.warm.cpu));
    record(`serve first request after start / warm, new connections: ${label}`, ratio, {
      target: '<= 2',
      pass: ratio <= 2,
      context: `servers ${each.map((r) => (r.first.ms / r.warm.ms).toFixed(2)).join(', ')}; main thread CPU medians ${cpuFirst.toFixed(2)} vs ${cpuWarm.toFixed(2)} ms (${(cpuFirst / cpuWarm).toFixed(1)}x); load ${loadavg()[0].toFixed(1)}`,
    });
  }
  return runs.at(-1).server;
}

/**
 * The floor of `firstRequests`: a bare node:http server (bench/bare-server.mjs) answering the
 * bytes of `GET /v1/user`, its first request after it listens against the same request warm, on a
 * kept-alive connection and each on a new one; once as it starts, once after it answered two
 * requests of its own on one kept-alive connection and waited for its trailing work (BARE_WARM_UP,
 * as `docs serve` does before ready).
 */
async function bareFirstRequests({ env, record, log, body, warm }) {
  await warmClient();
  log(`\n[journeys] a bare node:http server: its first request after listening vs the same request warm (median of ${warm})`);
  const file = join(tempDir('journeys-bare-first'), 'user.json');
  writeFileSync(file, body);
  for (const warmUp of [false, true]) {
    const label = warmUp ? 'after requests of its own' : 'as it starts';
    const bare = await startBareServer({ '/v1/user': file }, 'application/json; charset=utf-8', warmUp ? { ...env, BARE_WARM_UP: '1' } : env);
    try {
      const url = `${bare.url}/v1/user`;
      const first = await timedGetNewConnection(url, {}, bare.pid);
      const ka = await medians(warm, () => timedGet(url, {}, bare.pid));
      const nc = await medians(warm, () => timedGetNewConnection(url, {}, bare.pid));
      record(`bare node:http first request (${label}) / warm, kept-alive`, first.ms / ka.ms, { target: 'report', pass: true, context: cpuContext(first, ka) });
      record(`bare node:http first request (${label}) / warm, new connections`, first.ms / nc.ms, {
        target: 'report',
        pass: true,
        context: cpuContext(first, nc),
      });
    } finally {
      await stopChild(bare.child);
    }
  }
}

/** json-server 0.17 on `records` spaces shaped like ours. */
async function startJsonServer(env, records, sample) {
  const dir = tempDir(`json-server-${records}`);
  const db = join(dir, 'db.json');
  const spaces = Array.from({ length: records }, (_, i) => ({ ...sample, id: `s${i}`, title: `Space ${i}` }));
  writeFileSync(db, JSON.stringify({ spaces }));
  const bin = join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
  const child = await startChild(`json-server ${records}`, [bin, db, '--host', '127.0.0.1', '--port', String(await freePort())], {
    env,
    ready: /(http:\/\/127\.0\.0\.1:\d+)/,
    timeoutMs: 60_000,
  });
  return { ...child, dir, url: child.url };
}

async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Prism's mock of the 0.202.0 spec (test/helpers/mock/prism-mock.mjs): it stops when its stdin closes. */
function startPrism(env) {
  const child = spawn(process.execPath, [join(ROOT, 'test', 'helpers', 'mock', 'prism-mock.mjs'), SPEC('gitbook-api-latest')], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`prism did not listen within 120 s: ${out}`));
    }, 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited ${code}: ${out}`));
    });
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      process.once('exit', () => child.kill('SIGKILL'));
      resolve({ child, url: m[1] });
    });
  });
}

/** GET the same kind of record at 32 connections on docs serve and each peer, in alternating rounds. */
async function peers({ env, record, log, server, space, seconds }) {
  const docsUrl = `${server.url}/v1/spaces/${space}`;
  const sample = json((await timedGet(docsUrl)).text);
  const started = [];
  try {
    const targets = { docs: docsUrl };
    for (const n of [1000, 50000]) {
      const js = await startJsonServer(env, n, sample);
      started.push(js);
      targets[`json-server ${n}`] = `${js.url}/spaces/s${Math.floor(n / 2)}`;
    }
    const prism = await startPrism(env);
    started.push(prism);
    targets.prism = `${prism.url}/v1/spaces/${space}`;
    for (const [label, url] of Object.entries(targets)) {
      const r = await fetch(url, { headers: AUTH });
      if (r.status !== 200) throw new Error(`${label} GET ${url}: ${r.status}`);
      await r.arrayBuffer();
    }
    log(`\n[journeys] peers: GET one space at 32 connections, ${seconds} s each in 4 alternating rounds`);
    const sums = Object.fromEntries(Object.keys(targets).map((k) => [k, { total: 0, seconds: 0 }]));
    for (const url of Object.values(targets)) await load({ url, connections: 32, duration: 1, headers: AUTH });
    for (let round = 0; round < 4; round++) {
      for (const [label, url] of Object.entries(targets)) {
        const r = await load({ url, connections: 32, duration: seconds / 4, headers: AUTH });
        if (r.non2xx || r.errors) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        sums[label].total += r.total;
        sums[label].seconds += r.seconds;
      }
    }
    const rps = (k) => sums[k].total / sums[k].seconds;
    for (const k of Object.keys(targets)) {
      if (k === 'docs') continue;
      const ratio = rps('docs') / rps(k);
      record(`serve reads / ${k} (same GET, 32 connections)`, ratio, {
        target: '>= 1',
        pass: ratio >= 1,
        context: `${Math.round(rps('docs'))} vs ${Math.round(rps(k))} req/s; load average ${loadavg()[0].toFixed(1)}`,
      });
    }
  } finally {
    for (const s of started) {
      await stopChild(s.child);
      if (s.dir) removeDir(s.dir);
    }
  }
}

/**
 * What the first requests' remedies may cost: `docs serve` from spawn to its ready line against
 * `node -e 0`, and its RSS at ready against a bare node:http server's (bench/bare-server.mjs) at
 * listening, alternating, `runs` times each.
 */
async function serveStart({ env, record, log, data, runs, bin = BIN }) {
  log(`\n[journeys] docs serve: start to ready / node -e 0, RSS at ready / a bare node:http server, ${runs} starts each, alternating`);
  const body = join(tempDir('journeys-bare'), 'body.json');
  writeFileSync(body, '{}');
  const rss = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
  const t = { serve: [], cpu: [], node: [], rss: [], bareRss: [] };
  for (let i = 0; i < runs; i++) {
    const steps = [
      async () => {
        const t0 = process.hrtime.bigint();
        const s = await startDocsServe(data, env, bin);
        t.serve.push(Number(process.hrtime.bigint() - t0) / 1e6);
        t.rss.push(rss(s.pid));
        t.cpu.push(cpuSeconds(s.pid) * 1000); // all threads, spawn to ready (10 ms ticks)
        await stopChild(s.child);
      },
      async () => {
        t.node.push(timeNode(['-e', '0'], env).ms);
        const b = await startBareServer({ '/': body }, 'application/json', env);
        t.bareRss.push(rss(b.pid));
        await stopChild(b.child);
      },
    ];
    for (const step of i % 2 ? steps.reverse() : steps) await step();
  }
  const ratio = median(t.serve) / median(t.node);
  record('serve start to ready / node -e 0', ratio, {
    target: 'report',
    pass: true,
    context: `medians ${median(t.serve).toFixed(0)} vs ${median(t.node).toFixed(0)} ms, start CPU ${median(t.cpu).toFixed(0)} ms; load average ${loadavg()[0].toFixed(1)}`,
  });
  const mem = median(t.rss) / median(t.bareRss);
  record('serve RSS at ready / bare node:http', mem, {
    target: 'report',
    pass: true,
    context: `medians ${(median(t.rss) / 1048576).toFixed(1)} vs ${(median(t.bareRss) / 1048576).toFixed(1)} MB`,
  });
}

/** `--only=serve`: a store of one 200-page space made with `bin`'s CLI, its search index built. */
async function serveOnlyRows({ env, record, log, quick, bin, rounds }) {
  const data = tempDir('journeys-serve');
  await seedSpaces(data, { token: TOKEN, spaces: 0 }); // the owner and the bench's token
  const cli = (...args) => json(timeNode([bin, ...args, '--json', '--data', data], env).stdout);
  const org = cli('orgs', 'list').items[0].id;
  const space = cli('spaces', 'create', '--title', 'Journeys').id;
  const folder = writeFolder(tempDir('journeys-folder'), 200);
  if (cli('content', 'push', folder, '--space', space, '--merge').added !== 200) throw new Error('the push did not add 200 pages');
  cli('search', 'section page', '--space', space);
  removeDir(folder);
  try {
    for (let r = 0; r < rounds; r++) {
      const server = await firstRequests({ env, record, log, data, org, space, warm: quick ? 5 : 21, servers: quick ? 3 : 5, bin });
      const body = (await timedGet(`${server.url}/v1/user`)).text;
      await stopChild(server.child);
      await bareFirstRequests({ env, record, log, body, warm: quick ? 5 : 21 });
    }
    await serveStart({ env, record, log, data, runs: quick ? 3 : 7, bin });
  } finally {
    removeDir(data);
  }
}

/** `--only=peers`: the peers' rows alone, on a store of one space (bench/seed.mjs), served by `bin`. */
async function peersOnlyRows({ env, record, log, quick, bin }) {
  const data = tempDir('journeys-peers');
  await seedSpaces(data, { token: TOKEN, spaces: 1 });
  const server = await startDocsServe(data, env, bin);
  try {
    const org = (await (await fetch(`${server.url}/v1/orgs`, { headers: AUTH })).json()).items[0].id;
    const space = (await (await fetch(`${server.url}/v1/orgs/${org}/spaces`, { headers: AUTH })).json()).items[0].id;
    await peers({ env, record, log, server, space, seconds: quick ? 2 : 8 });
  } finally {
    await stopChild(server.child);
    removeDir(data);
  }
}

export async function journeyRows({ env, record, log, quick }) {
  const runs = quick ? 3 : 7;
  const data = tempDir('journeys');
  await seedSpaces(data, { token: TOKEN, spaces: 1 });
  const { org, space } = await cliJourneys({ env, record, log, runs, data });
  const server = await firstRequests({ env, record, log, data, org, space, warm: quick ? 5 : 21, servers: quick ? 3 : 5 });
  try {
    await bareFirstRequests({ env, record, log, body: (await timedGet(`${server.url}/v1/user`)).text, warm: quick ? 5 : 21 });
    await peers({ env, record, log, server, space, seconds: quick ? 2 : 8 });
  } finally {
    await stopChild(server.child);
    removeDir(data);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = [];
  const log = (s = '') => process.stdout.write(s + '\n');
  const record = (figure, value, { shown = fmt(value), target, pass, context }) => {
    results.push({ figure, shown, target, pass });
    log(`  ${figure}: ${shown}  (target ${target}: ${pass ? 'pass' : 'FAIL'})  [${context}]`);
    process.stdout.write(`BENCH-RESULT ${JSON.stringify({ figure, shown, target, pass })}\n`);
  };
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const env = childEnv(tempDir('journeys-config'));
  const quick = process.argv.includes('--quick');
  if (arg('only') === 'serve') await serveOnlyRows({ env, record, log, quick, bin: arg('bin') ?? BIN, rounds: Number(arg('rounds') ?? 1) });
  else if (arg('only') === 'peers') await peersOnlyRows({ env, record, log, quick, bin: arg('bin') ?? BIN });
  else await journeyRows({ env, record, log, quick });
  process.exit(results.every((r) => r.pass) ? 0 : 1);
}
