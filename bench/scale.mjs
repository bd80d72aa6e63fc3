// `node bench/run.mjs --scale`: the figures of the scale issue, on a big store (default 2,000
// spaces of 100 pages = 200,000 pages) against the same measurement on an EMPTY store (freshly
// bootstrapped, one space of as many pages as each big-store space) in the same run. Each figure
// is printed with its target; exits 1 when a target is missed.
//
//   node bench/run.mjs --scale [--scale=PAGES | --spaces S --pages P] [--scale-dir DIR] [--reseed]
//                      [--batch-pages N] [--seed-concurrency C] [--env NAME=VALUE ...] [--quick]
//
//   --scale=PAGES      PAGES pages in spaces of 100 (--scale=20000: 200 spaces); default 200,000
//   --spaces, --pages  spaces, and pages per space (a multiple of 50), e.g. --spaces 200 --pages 100
//   --scale-dir DIR    where the seed is kept (default <tmpdir>/docs-bench-scale-<S>x<P>)
//   --reseed           seed again even if DIR holds a complete seed
//   --batch-pages N    the batch figure's space: N pages in 50-page batches (default 50,000; 0 skips it)
//   --seed-concurrency C  spaces built at a time while seeding (default 16: 64 was slower in a trial)
//   --env NAME=VALUE   set for every docs process (CLI and serve), e.g. a cache bound
//   --quick            fewer runs and shorter loads
//
// The big store is seeded once and reused: seeding 200,000 pages through the operations takes
// long. It lives in DIR/data, and DIR/seeded.json (sizes, ids, seeding time) is written only
// when seeding completed, so an interrupted seed is redone. Runs never touch DIR/data: it is
// copied to a scratch dir first (the server and the CLI may write on open, writes rename spaces).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { BIN, ROOT, childEnv, dirBytes, load, mb, median, peakRss, removeDir, startChild, stopChild, tempDir, timeNode } from './lib.mjs';
import { queryWord, sectionChanges } from './text.mjs';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const CLI_RUNS = QUICK ? 5 : 15;
const SLOW_CLI_MS = 10_000; // a command slower than this is timed 3 times: the ratio is far off anyway
const START_RUNS = QUICK ? 3 : 5;
const LOAD_SECONDS = QUICK ? 2 : 5;
const WARMUP_SECONDS = 1;
const ROUNDS = 4;
const RSS_SPACES = 100;
const RSS_ROUNDS = 3;
const SEARCH_QUERIES = QUICK ? 10 : 25;
const SEARCH_CLIENTS = 4;
const SEARCH_LOAD_SECONDS = QUICK ? 4 : 10;
const TOKEN = 'bench-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const WRITE_HEADERS = { ...AUTH, 'content-type': 'application/json' };
const WRITE_BODY = JSON.stringify({ title: 'Bench space renamed' });
// Loading 200,000 pages may take minutes on today's store: no start-up or request timeout
// should cut a figure short (a slow figure is a FAIL with its time, not a crash).
const START_TIMEOUT_MS = 60 * 60_000;
const http = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 16 });
const health = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 1 }); // [5]'s own keep-alive connection

const results = [];
const problems = [];
const log = (s = '') => process.stdout.write(s + '\n');
const fmtRatio = (x) => `${x.toFixed(2)}x`;
const fmtMs = (ms) => `${ms.toFixed(1)} ms`;
const int = (n) => Math.round(n).toLocaleString('en-US');

function record(figure, value, { shown = fmtRatio(value), target, pass, context }) {
  results.push({ figure, value, shown, target, pass, context });
  log(`  ${figure}: ${shown}  (target ${target}: ${pass ? 'pass' : 'FAIL'})  [${context}]`);
}

// ---------------------------------------------------------------------------------------------
// Options.

/** The value of `--name=V` or `--name V`, else undefined. */
function option(name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}` && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) return argv[i + 1];
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
}
function count(name, fallback, { multipleOf = 1, min = 1 } = {}) {
  const v = option(name);
  if (v === undefined) return fallback;
  const n = Number(v.replace(/[_,]/g, ''));
  if (!Number.isInteger(n) || n < min || n % multipleOf)
    throw new Error(`--${name}: an integer >= ${min}${multipleOf > 1 ? `, a multiple of ${multipleOf}` : ''} (got ${v})`);
  return n;
}

function sizes() {
  // --scale=PAGES (or --scale PAGES): spaces of 100 pages, the default shape; --spaces / --pages override.
  const total = count('scale', 200_000, { multipleOf: 100 });
  const pagesPerSpace = count('pages', 100, { multipleOf: 50 });
  const spaces = count('spaces', Math.max(1, Math.round(total / pagesPerSpace)));
  return { spaces, pagesPerSpace };
}

/** --env NAME=VALUE, repeatable: given to every docs child (the caller's DOCS_* are not, see lib.mjs). */
function extraEnv() {
  const env = {};
  argv.forEach((a, i) => {
    const kv = a === '--env' ? argv[i + 1] : a.startsWith('--env=') ? a.slice(6) : undefined;
    if (kv === undefined) return;
    const eq = kv.indexOf('=');
    if (eq < 1) throw new Error(`--env: NAME=VALUE (got ${kv})`);
    env[kv.slice(0, eq)] = kv.slice(eq + 1);
  });
  return env;
}

// ---------------------------------------------------------------------------------------------
// Seeding (bench/scale-seed.mjs in a child process) and the reused seed.

/**
 * A fingerprint of the store code (dist/src/store): a seed made by other store code may be in
 * another layout, which the store then converts at every start of every run; the bench says so.
 */
function storeFingerprint() {
  const dir = join(ROOT, 'dist', 'src', 'store');
  const h = createHash('sha1');
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort())
    h.update(f).update(readFileSync(join(dir, f)));
  return h.digest('hex').slice(0, 12);
}

/** Seeds `dir` in a child; resolves with the marker's content once it is written. */
function runSeed({ dir, marker, spaces, pagesPerSpace, concurrency, progress = false }) {
  // Today's store holds every row in memory while seeding: give the child room beyond Node's
  // default heap limit (about 4 GB), within the machine's memory.
  const heapMb = Math.min(16384, Math.floor((totalmem() / 1048576) * 0.7));
  const opts = { dir, marker, spaces, pagesPerSpace, token: TOKEN, concurrency, progress, fingerprint: storeFingerprint() };
  const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, join(ROOT, 'bench', 'scale-seed.mjs'), JSON.stringify(opts)], {
    cwd: ROOT,
    env: childEnv(tempDir('seed-config')),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Killed with the bench (lib.mjs's signal handlers exit, which runs this), so that no seed goes
  // on writing into a directory the next run removes.
  const kill = () => child.kill('SIGKILL');
  process.on('exit', kill);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('exit', kill);
      if (code === 0 && existsSync(marker)) resolve(JSON.parse(readFileSync(marker, 'utf8')));
      else reject(new Error(`seeding ${dir} failed (code ${code}, signal ${signal})`));
    });
  });
}

/** The big store: DIR/data with its marker DIR/seeded.json, seeded unless complete and of these sizes. */
async function bigSeed({ spaces, pagesPerSpace }, concurrency) {
  const dir = option('scale-dir') ?? join(tmpdir(), `docs-bench-scale-${spaces}x${pagesPerSpace}`);
  const data = join(dir, 'data');
  const marker = join(dir, 'seeded.json');
  let seed = existsSync(marker) ? JSON.parse(readFileSync(marker, 'utf8')) : undefined;
  if (seed && (seed.spaces !== spaces || seed.pagesPerSpace !== pagesPerSpace)) {
    log(`  ${dir} holds a seed of ${seed.spaces} x ${seed.pagesPerSpace} pages, not ${spaces} x ${pagesPerSpace}: seeding again`);
    seed = undefined;
  }
  if (seed && argv.includes('--reseed')) seed = undefined;
  if (seed) {
    log(`  reusing ${data}: seeded ${seed.seededAt} in ${seed.seconds.toFixed(1)} s (concurrency ${seed.concurrency})`);
    const now = storeFingerprint();
    if (seed.fingerprint !== now) log(`  note: seeded by other store code (dist/src/store ${seed.fingerprint}, now ${now}); --reseed to seed with this code`);
    return { ...seed, dir, data, reused: true };
  }
  // Never remove a directory that is not ours (a --scale-dir given by mistake).
  if (existsSync(dir)) {
    const stray = readdirSync(dir).filter((f) => !['data', 'seeded.json', 'seeded.json.tmp'].includes(f));
    if (stray.length) throw new Error(`${dir} holds other files (${stray.slice(0, 3).join(', ')}): not a bench seed, not removed`);
    if (!existsSync(marker) && existsSync(data)) log(`  ${data} has no marker (an interrupted seed): seeding again`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`  seeding ${int(spaces * pagesPerSpace)} pages (${int(spaces)} spaces x ${pagesPerSpace}) into ${data}, ${concurrency} spaces at a time`);
  seed = await runSeed({ dir: data, marker, spaces, pagesPerSpace, concurrency, progress: true });
  return { ...seed, dir, data, reused: false };
}

// ---------------------------------------------------------------------------------------------
// Processes and HTTP.

function startServe(dataDir, env) {
  return startChild('docs serve', [BIN, 'serve', '--port', '0', '--quiet', '--data', dataDir], {
    env,
    ready: /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
    timeoutMs: START_TIMEOUT_MS,
  });
}

/** GET (no timeout: a first search may build every space's index), the text of a 200 or a throw. */
async function getText(url) {
  const res = await fetch(url, { headers: AUTH, dispatcher: http });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return text;
}
const getJson = async (url) => JSON.parse(await getText(url));

/** The q-quantile (nearest rank) of `xs`. */
function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

async function timed(fn) {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

/** Runs `fn(item)` over `items`, `concurrency` at a time. */
async function each(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(items.length, concurrency) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** A seeded generator (mulberry32): the same "random" spaces in every run, and text.mjs's stream untouched. */
function generator(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function sample(ids, n, rnd) {
  const pool = [...ids];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return Array.from({ length: n }, (_, i) => pool[i % pool.length]);
}

/**
 * autocannon on `base`, each connection going through `paths` in turn: reads spread over the
 * store's spaces rather than one row that any cache holds. A fixed list of requests, not a
 * setupRequest function: autocannon then builds each request once, where a function per
 * request cost the client (on the same 2 cores) about a third of the rate in a trial.
 * Same result shape as lib.mjs load().
 */
async function loadPaths({ base, paths, connections, duration, headers }) {
  const r = await autocannon({
    url: base,
    connections,
    pipelining: 1,
    duration,
    headers,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  const seconds = r.duration > 0 ? r.duration : duration;
  return { rps: r.requests.total / seconds, seconds, total: r.requests.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts, p99: r.latency.p99 };
}

/**
 * Each of `targets` ({ label: (seconds) => load result }) after a warm-up of each, then in turns
 * of ROUNDS short rounds (LOAD_SECONDS in all per target), so that a busy spell of the shared
 * machine or a slow spell of the disk falls on all of them alike. `check(label, r)` each result.
 */
async function alternatingLoads(targets, check) {
  for (const [label, run] of Object.entries(targets)) check(label, await run(WARMUP_SECONDS));
  const sums = Object.fromEntries(Object.keys(targets).map((k) => [k, { total: 0, seconds: 0, p99: 0 }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, run] of Object.entries(targets)) {
      const r = await run(LOAD_SECONDS / ROUNDS);
      check(label, r);
      const s = sums[label];
      s.total += r.total;
      s.seconds += r.seconds;
      s.p99 = Math.max(s.p99, r.p99);
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([k, s]) => [k, { ...s, rps: s.total / s.seconds }]));
}

/**
 * Each of `cmds` ({ label: node args }) `runs` times after one warm-up round; within a round the
 * order rotates, so that no command always runs first or right after the same other. Medians.
 */
function alternateCommands(cmds, env, { runs, check }) {
  const labels = Object.keys(cmds);
  const times = Object.fromEntries(labels.map((l) => [l, []]));
  for (let round = 0; round <= runs; round++) {
    for (let k = 0; k < labels.length; k++) {
      const label = labels[(round + k) % labels.length];
      const r = timeNode(cmds[label], env);
      check?.(label, r.stdout);
      if (round > 0) times[label].push(r.ms);
      else if (r.ms > SLOW_CLI_MS && runs > 3) {
        log(`  (${label} took ${(r.ms / 1000).toFixed(1)} s: 3 runs each instead of ${runs})`);
        runs = 3;
      }
    }
  }
  return Object.fromEntries(labels.map((l) => [l, median(times[l])]));
}

// ---------------------------------------------------------------------------------------------
// Figures.

/** [2] From spawning `docs serve` to the answer of its first read (GET /v1/spaces/{id}). */
async function startToFirstRead(dataDir, env, spaceId) {
  const t0 = performance.now();
  const s = await startServe(dataDir, env);
  const listening = performance.now() - t0;
  await getJson(`${s.url}/v1/spaces/${spaceId}`);
  const ms = performance.now() - t0;
  await stopChild(s.child, 30_000);
  return { ms, listening };
}

/** [4] A fresh `docs serve` reading the pages of `spaceIds` (GET /v1/spaces/{id}/content) RSS_ROUNDS times; its VmHWM. */
async function peakServingSpaces(dataDir, env, spaceIds) {
  const s = await startServe(dataDir, env);
  const [ms] = await timed(async () => {
    for (let round = 0; round < RSS_ROUNDS; round++) {
      await each(spaceIds, 4, async (id) => {
        const rev = await getJson(`${s.url}/v1/spaces/${id}/content`);
        if (!rev.pages?.length) throw new Error(`GET /v1/spaces/${id}/content: no pages`);
      });
    }
  });
  const rss = peakRss(s.pid);
  await stopChild(s.child, 30_000);
  return { rss, ms };
}

/** [5] Organization-wide search: the first query (indexes built), then the median of `queries`. */
async function searchLatency(base, org, queries) {
  // Timed until the whole answer is received; parsing it here (megabytes) is not the server's time.
  const search = (q) => getText(`${base}/v1/orgs/${org}/search?query=${encodeURIComponent(q)}`);
  const [firstMs] = await timed(() => search(queries[0]));
  for (const q of queries.slice(1, 4)) await search(q); // warm-up
  const times = [];
  let spaces = 0;
  let bytes = 0;
  for (const q of queries) {
    const [ms, text] = await timed(() => search(q));
    times.push(ms);
    spaces += JSON.parse(text).count;
    bytes += text.length;
  }
  return { firstMs, medianMs: median(times), spacesPerQuery: spaces / queries.length, bytesPerQuery: bytes / queries.length };
}

/**
 * [5] /health latency while SEARCH_CLIENTS clients search without pause: one client asks /health
 * again as soon as answered, for SEARCH_LOAD_SECONDS, each answer timed here. Not autocannon:
 * its latencies leave out requests still waiting when the load ends, so a server stalled by
 * searches showed a p99 of 0 ms in a trial; here the last request is waited for and counted.
 */
async function healthWhileSearching(label, base, org, queries) {
  let stop = false;
  let searches = 0;
  const failed = { search: [], health: [] }; // counted and reported, not thrown: the load goes on
  const why = (e) => e.cause?.code ?? e.message.slice(0, 120);
  const clients = Array.from({ length: SEARCH_CLIENTS }, async (_, c) => {
    for (let i = c; !stop; i++) {
      await getJson(`${base}/v1/orgs/${org}/search?query=${encodeURIComponent(queries[i % queries.length])}`).then(
        () => searches++,
        (e) => failed.search.push(why(e)),
      );
    }
  });
  const times = [];
  const t0 = performance.now();
  while (performance.now() - t0 < SEARCH_LOAD_SECONDS * 1000) {
    const [ms, status] = await timed(() =>
      fetch(`${base}/health`, { dispatcher: health }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        (e) => why(e),
      ),
    );
    if (status === 200) times.push(ms);
    else failed.health.push(status);
  }
  const seconds = (performance.now() - t0) / 1000;
  stop = true;
  await Promise.all(clients);
  // A server that blocks its event loop longer than its keep-alive timeout resets the idle
  // connections it then finds (ECONNRESET for the request just sent on them): an error to report.
  for (const [what, list] of Object.entries(failed)) {
    if (list.length) problems.push(`${label} store, /health while searching: ${list.length} ${what} request(s) failed (${[...new Set(list)].join(', ')})`);
  }
  return {
    p99: times.length ? quantile(times, 0.99) : Infinity,
    p50: times.length ? median(times) : Infinity,
    n: times.length,
    searchesPerSecond: searches / seconds,
  };
}

/**
 * [6] One space built to `pages` pages in 50-page batches (updateChangeRequestContent with
 * text.mjs sectionChanges, into one change request, as the seed does) through `docs serve` on
 * its own fresh store. Each batch is timed; first and last are the medians of 5 batches, so one
 * hiccup of the machine does not make the figure. A few batches on another space first warm the
 * server up: a cold first batch (code not yet compiled) would flatter the ratio.
 */
async function batchTimes(pages, env) {
  const dir = tempDir('scale-batch');
  const s = await startServe(dir, { ...env, DOCS_BOOTSTRAP_TOKEN: TOKEN });
  const api = async (method, path, body) => {
    const res = await fetch(`${s.url}/v1${path}`, { method, headers: body ? WRITE_HEADERS : AUTH, body: body && JSON.stringify(body), dispatcher: http });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const org = (await api('GET', '/orgs')).items[0].id;
  const open = async (title) => {
    const space = (await api('POST', `/orgs/${org}/spaces`, { title })).id;
    const cr = (await api('POST', `/spaces/${space}/change-requests`, { subject: 'batches' })).id;
    return { space, cr, batch: (section) => api('POST', `/spaces/${space}/change-requests/${cr}/content`, { changes: sectionChanges(section) }) };
  };
  const warm = await open('Bench warm-up');
  for (let b = 0; b < 5; b++) await warm.batch(b);
  const { space, cr, batch } = await open('Bench batches');
  const batches = pages / 50;
  const every = Math.max(1, Math.round(batches / 10));
  const times = [];
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) {
    const [ms] = await timed(() => batch(b));
    times.push(ms);
    if (batches >= 20 && (b + 1) % every === 0) {
      log(`  batch ${b + 1}/${batches} (${int((b + 1) * 50)} pages): ${fmtMs(ms)}, ${((performance.now() - t0) / 1000).toFixed(0)} s so far`);
    }
  }
  const [mergeMs] = await timed(() => api('POST', `/spaces/${space}/change-requests/${cr}/merge`));
  const listed = await api('GET', `/spaces/${space}/content/pages`);
  const n = listed.pages.reduce((a, p) => a + 1 + (p.pages?.length ?? 0), 0);
  if (n !== pages) problems.push(`the batch space has ${n} pages after the merge, not ${pages}`);
  await stopChild(s.child, 30_000);
  removeDir(dir);
  const k = Math.min(5, Math.floor(batches / 2)) || 1;
  return {
    first: median(times.slice(0, k)),
    last: median(times.slice(-k)),
    k,
    firstRaw: times[0],
    lastRaw: times.at(-1),
    totalS: (performance.now() - t0) / 1000,
    mergeMs,
  };
}

// ---------------------------------------------------------------------------------------------

export async function main() {
  if (!existsSync(join(ROOT, 'dist')) || !existsSync(join(ROOT, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing: run `npm run build` first');
  }
  const t0 = Date.now();
  const { spaces, pagesPerSpace } = sizes();
  const batchPages = count('batch-pages', 50_000, { multipleOf: 50, min: 0 });
  const concurrency = count('seed-concurrency', 16);
  const configDir = tempDir('config');
  const env = childEnv(configDir, extraEnv());
  const pages = spaces * pagesPerSpace;
  log(
    `docs bench --scale (node ${process.version}, ${QUICK ? 'quick' : 'full'} run): ${int(pages)} pages in ${int(spaces)} spaces of ${pagesPerSpace} vs an empty store`,
  );

  // The stores ------------------------------------------------------------------------------------
  log(`\nThe big store`);
  const big = await bigSeed({ spaces, pagesPerSpace }, concurrency);
  const disk = dirBytes(big.data);
  if (!big.reused) log(`  seeded in ${big.seconds.toFixed(1)} s (${int(pages / big.seconds)} pages/s)`);
  log(`  on disk: ${mb(disk.bytes)} in ${int(disk.files)} files`);
  record(`Seeding ${int(pages)} pages (${big.reused ? 'reused seed' : 'this run'})`, big.seconds, {
    shown: `${big.seconds.toFixed(1)} s`,
    target: 'report',
    pass: true,
    context: `${int(pages / big.seconds)} pages/s, ${big.concurrency} spaces at a time; ${mb(disk.bytes)} in ${int(disk.files)} files`,
  });
  const scratchRoot = tempDir('scale-scratch');
  const scratch = join(scratchRoot, 'data');
  const [copyMs] = await timed(async () => cpSync(big.data, scratch, { recursive: true }));
  log(`  copied to a scratch dir in ${(copyMs / 1000).toFixed(1)} s (runs never write the seed)`);

  // The empty store: bootstrapped, one space shaped like each big-store space, so that only the
  // size of the store differs between the two.
  const emptyDir = tempDir('scale-empty');
  const empty = await runSeed({ dir: join(emptyDir, 'data'), marker: join(emptyDir, 'seeded.json'), spaces: 1, pagesPerSpace, concurrency: 1 });
  const emptyData = join(emptyDir, 'data');
  const bigSpace = big.spaceIds[Math.floor(big.spaceIds.length / 2)];
  const emptySpace = empty.spaceIds[0];

  // 1. CLI command ------------------------------------------------------------------------------
  log(`\n[1] CLI command: node bin/run.js pages list SPACE --json --data DIR, big store vs empty store vs node -e 0, ${CLI_RUNS} runs each, rotating`);
  {
    const cli = (dir, space) => [BIN, 'pages', 'list', space, '--json', '--data', dir];
    const m = alternateCommands({ big: cli(scratch, bigSpace), empty: cli(emptyData, emptySpace), bare: ['-e', '0'] }, env, {
      runs: CLI_RUNS,
      check: (label, out) => {
        if (label !== 'bare' && !(JSON.parse(out).pages?.length > 0)) throw new Error(`unexpected pages list output: ${out.slice(0, 300)}`);
      },
    });
    const ctx = `medians ${fmtMs(m.big)} big, ${fmtMs(m.empty)} empty, ${fmtMs(m.bare)} node -e 0`;
    record('CLI pages list, big / empty store', m.big / m.empty, { target: '<= 1.5', pass: m.big / m.empty <= 1.5, context: ctx });
    record('CLI pages list, big store / node -e 0', m.big / m.bare, {
      target: '<= 3',
      pass: m.big / m.bare <= 3,
      context: `empty store / node -e 0 ${fmtRatio(m.empty / m.bare)}`,
    });
  }

  // 2. Start to first read ------------------------------------------------------------------------
  log(`\n[2] docs serve: from spawn to the answer of the first GET /v1/spaces/{id}, big vs empty store, ${START_RUNS} starts each, alternating`);
  {
    const t = { big: [], empty: [], bigListening: [] };
    for (let i = 0; i < START_RUNS; i++) {
      const order = i % 2 ? ['empty', 'big'] : ['big', 'empty'];
      for (const which of order) {
        const r = which === 'big' ? await startToFirstRead(scratch, env, bigSpace) : await startToFirstRead(emptyData, env, emptySpace);
        t[which].push(r.ms);
        if (which === 'big') t.bigListening.push(r.listening);
      }
    }
    const b = median(t.big);
    const e = median(t.empty);
    record('serve start to first read, big store', b, {
      shown: fmtMs(b),
      target: '<= 1000 ms',
      pass: b <= 1000,
      context: `medians; listening after ${fmtMs(median(t.bigListening))}; empty store ${fmtMs(e)}`,
    });
    record('serve start to first read, big / empty store', b / e, { target: 'report', pass: true, context: `${fmtMs(b)} vs ${fmtMs(e)}` });
  }

  // 4. Memory (before [3]: a fresh server, whose peak is loading plus these reads, nothing else) ----
  log(
    `\n[4] Memory: peak RSS (VmHWM) of a fresh docs serve reading the pages of ${RSS_SPACES} random spaces (GET /v1/spaces/{id}/content), ${RSS_ROUNDS} times`,
  );
  {
    const ids = sample(big.spaceIds, RSS_SPACES, generator(12));
    const b = await peakServingSpaces(scratch, env, ids);
    const e = await peakServingSpaces(emptyData, env, Array(RSS_SPACES).fill(emptySpace));
    record('peak RSS serving 100 random spaces, big store', b.rss, {
      shown: mb(b.rss),
      target: '<= 300 MB',
      pass: b.rss <= 300 * 1048576,
      context: `empty store ${mb(e.rss)} (big / empty ${fmtRatio(b.rss / e.rss)}); ${RSS_ROUNDS * RSS_SPACES} reads in ${fmtMs(b.ms)} vs ${fmtMs(e.ms)}; data on disk ${mb(disk.bytes)}`,
    });
  }

  // Servers for [3] and [5] ----------------------------------------------------------------------
  const bigServe = await startServe(scratch, env);
  const emptyServe = await startServe(emptyData, env);

  // 3. Reads and writes at 32 connections ---------------------------------------------------------
  log(
    `\n[3] Reads: GET /v1/spaces/{id} at 32 connections, each request the next space of the store (${int(spaces)} big, 1 empty), ${LOAD_SECONDS} s each in ${ROUNDS} alternating rounds after ${WARMUP_SECONDS} s warm-up`,
  );
  {
    const paths = (ids) => ids.map((id) => `/v1/spaces/${id}`);
    const bigPaths = paths(sample(big.spaceIds, big.spaceIds.length, generator(3)));
    const check = (label, r) => {
      if (r.non2xx || r.errors || r.timeouts)
        problems.push(`GET /v1/spaces/{id} (${label} store) at 32 connections: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    };
    const r = await alternatingLoads(
      {
        big: (duration) => loadPaths({ base: bigServe.url, paths: bigPaths, connections: 32, duration, headers: AUTH }),
        // The same number of requests in the list (autocannon's client cost grows with it), all one space.
        empty: (duration) => loadPaths({ base: emptyServe.url, paths: paths(bigPaths.map(() => emptySpace)), connections: 32, duration, headers: AUTH }),
      },
      check,
    );
    const ratio = r.big.rps / r.empty.rps;
    record('Reads @32 conns, big / empty store', ratio, {
      target: '>= 0.8',
      pass: ratio >= 0.8,
      context: `${int(r.big.rps)} vs ${int(r.empty.rps)} req/s; worst round p99 ${r.big.p99} vs ${r.empty.p99} ms`,
    });
  }
  log(
    `\n[3] Writes: durable PATCH /v1/spaces/{id} ${WRITE_BODY} at 32 connections, ${LOAD_SECONDS} s per store in ${ROUNDS} alternating rounds after ${WARMUP_SECONDS} s warm-up`,
  );
  {
    const patch = (url) => (duration) => load({ url, connections: 32, duration, method: 'PATCH', headers: WRITE_HEADERS, body: WRITE_BODY });
    const check = (label, r) => {
      const not200 = r.total - (r.statuses['200'] ?? 0);
      if (not200 || r.errors || r.timeouts)
        problems.push(
          `PATCH /v1/spaces/{id} (${label} store): ${not200} answers not 200 ${JSON.stringify(r.statuses)}, ${r.errors} errors, ${r.timeouts} timeouts`,
        );
    };
    const w = await alternatingLoads({ big: patch(`${bigServe.url}/v1/spaces/${bigSpace}`), empty: patch(`${emptyServe.url}/v1/spaces/${emptySpace}`) }, check);
    const ratio = w.big.rps / w.empty.rps;
    record('Durable writes @32 conns, big / empty store', ratio, {
      target: '>= 0.8',
      pass: ratio >= 0.8,
      context: `${int(w.big.rps)} vs ${int(w.empty.rps)} writes/s; worst round p99 ${w.big.p99} vs ${w.empty.p99} ms`,
    });
  }

  // 5. Organization-wide search --------------------------------------------------------------------
  log(
    `\n[5] Search: GET /v1/orgs/{org}/search?query=... (${SEARCH_QUERIES} queries of middle-frequency words of the seeded text), then GET /health at 1 connection for ${SEARCH_LOAD_SECONDS} s while ${SEARCH_CLIENTS} clients search`,
  );
  {
    const queries = Array.from({ length: SEARCH_QUERIES }, (_, i) => (i % 2 ? queryWord() : `${queryWord()} ${queryWord()}`));
    const sb = await searchLatency(bigServe.url, big.org, queries);
    const se = await searchLatency(emptyServe.url, empty.org, queries);
    record('Org search median, big store', sb.medianMs, {
      shown: fmtMs(sb.medianMs),
      target: '<= 200 ms',
      pass: sb.medianMs <= 200,
      context: `empty store ${fmtMs(se.medianMs)} (${fmtRatio(sb.medianMs / se.medianMs)}); first query ${fmtMs(sb.firstMs)} vs ${fmtMs(se.firstMs)}; ${sb.spacesPerQuery.toFixed(0)} spaces with hits, ${mb(sb.bytesPerQuery)} per answer`,
    });
    const hb = await healthWhileSearching('big', bigServe.url, big.org, queries);
    const he = await healthWhileSearching('empty', emptyServe.url, empty.org, queries);
    record(`/health p99 while ${SEARCH_CLIENTS} clients search, big store`, hb.p99, {
      shown: fmtMs(hb.p99),
      target: '<= 50 ms',
      pass: hb.p99 <= 50,
      context: `${int(hb.n)} /health, p50 ${fmtMs(hb.p50)}, ${hb.searchesPerSecond.toFixed(1)} searches/s; empty store p99 ${fmtMs(he.p99)} (${int(he.n)}), ${he.searchesPerSecond.toFixed(1)} searches/s`,
    });
  }
  await Promise.all([stopChild(bigServe.child, 30_000), stopChild(emptyServe.child, 30_000)]);
  removeDir(emptyDir);

  // 6. Batches -------------------------------------------------------------------------------------
  if (batchPages > 0) {
    log(`\n[6] Batches: one space built to ${int(batchPages)} pages in 50-page batches (updateChangeRequestContent) through docs serve on a fresh store`);
    const b = await batchTimes(batchPages, env);
    const ratio = b.last / b.first;
    record(`last / first 50-page batch, ${int(batchPages)}-page space`, ratio, {
      target: '<= 2',
      pass: ratio <= 2,
      context: `medians of ${b.k}: ${fmtMs(b.last)} vs ${fmtMs(b.first)} (single: ${fmtMs(b.lastRaw)} vs ${fmtMs(b.firstRaw)}); ${b.totalS.toFixed(0)} s in all; merge ${fmtMs(b.mergeMs)}`,
    });
  } else {
    log(`\n[6] Batches: skipped (--batch-pages 0)`);
  }

  // 7. PostgreSQL backend: its figures go here (durable writes/s at 32 connections through two
  //    servers >= 1,000/s; reads >= 0.5x the embedded store's), added with that backend.

  // 8. Search kept at commit time and memory (issue 28 items 6 and 4): bench/search-scale.mjs.
  log('\n[8] Search and memory at scale (bench/search-scale.mjs)');
  for (const r of await (await import('./search-scale.mjs')).searchRows({ scaleDir: big.dir, quick: QUICK, env: extraEnv() })) record(r.figure, r.value, r);

  removeDir(scratchRoot);
  removeDir(configDir);

  // Summary ------------------------------------------------------------------------------------
  const rows = results.map((r) => [r.figure, r.shown, r.target, r.pass ? 'pass' : 'FAIL']);
  const head = ['figure', 'value', 'target', 'result'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(w[i])).join('  ');
  log(`\n${line(head)}\n${w.map((n) => '-'.repeat(n)).join('  ')}`);
  for (const r of rows) log(line(r));
  for (const p of problems) log(`ERROR: ${p}`);
  const failed = results.filter((r) => !r.pass).length;
  log(
    `\n${failed ? `${failed} target(s) missed` : 'all targets met'}${problems.length ? `, ${problems.length} error(s)` : ''} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  process.exitCode = failed || problems.length ? 1 : 0;
}
