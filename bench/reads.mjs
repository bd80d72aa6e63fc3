// The reads of bench/run.mjs's section [3] alone, with the server's CPU per request, and A/B
// against another checkout's build:
//
//   node bench/reads.mjs [--bin=OTHER/bin/run.cjs] [--seconds=10] [--rounds=5] [--connections=32]
//                        [--json-server] [--prof=DIR]
//
// One small store (the bootstrap organization and one space, bench/seed.mjs `seedSpaces`) is
// copied for each `docs serve` (this build's, and `--bin`'s when given); a bare node:http server
// answers the same bytes (bench/bare-server.mjs); `--json-server` adds json-server 0.17 on 1,000
// spaces shaped like ours (the peer of bench/journeys.mjs). Each target takes turns in `rounds`
// rounds of GET /v1/orgs/{id}, GET /v1/spaces/{id} (answers kept: server/answers.ts) and
// GET /v1/orgs/{id}/spaces (run each time) at `connections` connections, so a busy
// spell of the shared machine falls on all of them; each round's server CPU (user + system, all
// threads, /proc) is divided by the requests it answered. `--prof=DIR` runs this build's server
// under `node --cpu-prof` (its profile written to DIR when it stops).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, childEnv, load, startBareServer, startChild, startDocsServe, stopChild, tempDir } from './lib.mjs';
import { seedSpaces } from './seed.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SECONDS = Number(arg('seconds') ?? 10);
const ROUNDS = Number(arg('rounds') ?? 5);
const CONNECTIONS = Number(arg('connections') ?? 32);
const OTHER = arg('bin');
const PROF = arg('prof');
const TOKEN = 'bench-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const log = (s = '') => process.stdout.write(s + '\n');

async function get(url) {
  const res = await fetch(url, { headers: AUTH });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${bytes.toString('utf8')}`);
  return { bytes, contentType: res.headers.get('content-type'), json: JSON.parse(bytes.toString('utf8')) };
}

const configDir = tempDir('reads-config');
const env = childEnv(configDir);
const seeded = tempDir('reads-store');
await seedSpaces(seeded, { token: TOKEN, spaces: 1 });

/** `docs serve` of `bin` on its own copy of the seeded store. */
async function serve(bin, prof) {
  const dir = tempDir('reads-serve');
  cpSync(seeded, dir, { recursive: true });
  if (!prof) return startDocsServe(dir, env, bin);
  return startChild('docs serve (profiled)', ['--cpu-prof', `--cpu-prof-dir=${prof}`, bin, 'serve', '--port', '0', '--quiet', '--data', dir], {
    env,
    ready: /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
  });
}

const servers = { docs: await serve(BIN, PROF) };
if (OTHER) servers.other = await serve(OTHER);
const org = (await get(`${servers.docs.url}/v1/orgs`)).json.items[0].id;
const space = (await get(`${servers.docs.url}/v1/orgs/${org}/spaces`)).json.items[0].id;
// The two reads of bench/run.mjs [3], and a list that keeps no answer (each request runs it).
const paths = { org: `/v1/orgs/${org}`, space: `/v1/spaces/${space}`, list: `/v1/orgs/${org}/spaces` };

const bareDir = tempDir('reads-bare');
const answers = {};
let contentType;
for (const [k, p] of Object.entries(paths)) {
  const r = await get(`${servers.docs.url}${p}`);
  // --bin answers the same bytes but its own port in the URLs: the same length.
  if (OTHER && (await get(`${servers.other.url}${p}`)).bytes.length !== r.bytes.length) throw new Error(`--bin answers other bytes for ${p}`);
  contentType = r.contentType;
  writeFileSync(join(bareDir, k), r.bytes);
  answers[p] = join(bareDir, k);
}
servers.bare = await startBareServer(answers, contentType, env);

if (arg('json-server') !== undefined || process.argv.includes('--json-server')) {
  const sample = (await get(`${servers.docs.url}${paths.space}`)).json;
  const dir = tempDir('reads-json-server');
  const db = join(dir, 'db.json');
  writeFileSync(db, JSON.stringify({ spaces: Array.from({ length: 1000 }, (_, i) => ({ ...sample, id: `s${i}`, title: `Space ${i}` })) }));
  const js = await startChild(
    'json-server',
    [join(ROOT, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js'), db, '--host', '127.0.0.1', '--port', String(await freePort())],
    {
      env,
      ready: /(http:\/\/127\.0\.0\.1:\d+)/,
      timeoutMs: 60_000,
    },
  );
  servers['json-server'] = { ...js, only: { space: '/spaces/s500' } };
}

async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** User and system CPU seconds of process `pid` so far (all threads), from /proc. */
function cpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]) / 100, sys: Number(f[12]) / 100 };
}

const targets = [];
for (const [label, s] of Object.entries(servers)) {
  for (const [k, p] of Object.entries(s.only ?? paths))
    targets.push({ label, what: k, url: `${s.url}${p}`, pid: s.pid, total: 0, seconds: 0, user: 0, sys: 0 });
}
for (const t of targets) await load({ url: t.url, connections: CONNECTIONS, duration: 1, headers: AUTH });
const loads = [];
for (let round = 0; round < ROUNDS; round++) {
  loads.push(loadavg()[0]);
  for (const t of round % 2 ? [...targets].reverse() : targets) {
    const c0 = cpu(t.pid);
    const r = await load({ url: t.url, connections: CONNECTIONS, duration: SECONDS / ROUNDS, headers: AUTH });
    const c1 = cpu(t.pid);
    if (r.non2xx || r.errors || r.timeouts) throw new Error(`${t.label} ${t.url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    t.total += r.total;
    t.seconds += r.seconds;
    t.user += c1.user - c0.user;
    t.sys += c1.sys - c0.sys;
  }
}
const rps = (label, what) => {
  const t = targets.find((x) => x.label === label && x.what === what);
  return t ? t.total / t.seconds : NaN;
};
log(`reads at ${CONNECTIONS} connections, ${SECONDS} s each in ${ROUNDS} alternating rounds; load average ${loads.map((l) => l.toFixed(1)).join(' ')}`);
for (const t of targets) {
  const r = t.total / t.seconds;
  log(
    `  ${t.label.padEnd(12)} ${t.what.padEnd(6)} ${Math.round(r).toString().padStart(6)} req/s  / bare ${(r / rps('bare', t.what)).toFixed(2)}  CPU ${(((t.user + t.sys) / t.total) * 1e6).toFixed(0)} µs/request (user ${((t.user / t.total) * 1e6).toFixed(0)}, system ${((t.sys / t.total) * 1e6).toFixed(0)})`,
  );
}
for (const s of Object.values(servers)) await stopChild(s.child, 10_000);
