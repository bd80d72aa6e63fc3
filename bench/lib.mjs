// Helpers for bench/run.mjs: child processes, timing, HTTP load, sizes.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(ROOT, 'bin', 'run.cjs');
export const HOST = '127.0.0.1';

// ---------------------------------------------------------------------------------------------
// Temp dirs and child processes, all cleaned up on exit (normal, error or signal).

const tempDirs = new Set();
const children = new Set();

export function tempDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `docs-bench-${label}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

function killAllNow() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {}
  }
  children.clear();
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {}
  }
  tempDirs.clear();
}
process.on('exit', killAllNow);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    killAllNow();
    process.exit(130);
  });
}

/** The environment for every child: no DOCS_* settings of the caller, a private config dir. */
export function childEnv(configDir, extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('DOCS_') || k === 'DEBUG' || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  return { ...env, DOCS_CONFIG_DIR: configDir, ...extra };
}

/**
 * Spawns `node ...args` and waits for a stdout line matching `ready` (its first group is returned
 * as `url`). The child is killed on exit of the bench.
 */
export function startChild(name, args, { env, ready, timeoutMs = 20_000 }) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (d) => (err = (err + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${timeoutMs} ms`)), timeoutMs);
    const fail = (e) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\n--- ${name} stdout ---\n${out}\n--- ${name} stderr ---\n${err}`));
    };
    child.on('exit', (code, signal) => fail(new Error(`${name} exited early (code ${code}, signal ${signal})`)));
    child.stdout.setEncoding('utf8').on('data', function onData(d) {
      out += d;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.on('exit', () => children.delete(child));
        child.stdout.off('data', onData);
        child.stdout.resume(); // keep draining
        resolve({ child, pid: child.pid, url: m[1], stderr: () => err });
      }
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export function stopChild(child, graceMs = 3000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      children.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function startDocsServe(dataDir, env, bin = BIN) {
  return startChild('docs serve', [bin, 'serve', '--port', '0', '--quiet', '--data', dataDir], {
    env,
    ready: /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
  });
}

/** A bare node:http server answering each `answers[path]` (a file of bytes) with `contentType`. */
export function startBareServer(answers, contentType, env) {
  return startChild('bare server', [join(ROOT, 'bench', 'bare-server.mjs'), contentType, ...Object.entries(answers).flat()], {
    env,
    ready: /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  });
}

// ---------------------------------------------------------------------------------------------
// Timing.

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Wall time in ms of one synchronous run of `node ...args`; throws if it fails. */
export function timeNode(args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout.toString('utf8') };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Alternates `node -e 0` and `node ...args`, `runs` times each after `warmup` discarded pairs.
 * The order within a pair alternates too, so neither side always runs right after the other.
 */
export function compareToBareNode(args, env, { runs, warmup = 2, check }) {
  const base = [];
  const cmd = [];
  for (let i = 0; i < warmup + runs; i++) {
    const pair = [];
    const runBase = () => pair.push(['base', timeNode(['-e', '0'], env).ms]);
    const runCmd = () => {
      const r = timeNode(args, env);
      if (check) check(r.stdout);
      pair.push(['cmd', r.ms]);
    };
    if (i % 2) {
      runCmd();
      runBase();
    } else {
      runBase();
      runCmd();
    }
    if (i < warmup) continue;
    for (const [k, ms] of pair) (k === 'base' ? base : cmd).push(ms);
  }
  const b = median(base);
  const c = median(cmd);
  return { ratio: c / b, cmdMs: c, baseMs: b, runs };
}

/** Alternates `node -e 0` and the async `fn()` (returns ms), `runs` times after 2 warm-up pairs. */
export async function againstNode(env, runs, fn) {
  const base = [];
  const cmd = [];
  for (let i = 0; i < runs + 2; i++) {
    const pair = [];
    const runBase = () => pair.push(['base', timeNode(['-e', '0'], env).ms]);
    const runCmd = async () => pair.push(['cmd', await fn()]);
    if (i % 2) {
      await runCmd();
      runBase();
    } else {
      runBase();
      await runCmd();
    }
    if (i < 2) continue;
    for (const [k, ms] of pair) (k === 'base' ? base : cmd).push(ms);
  }
  return { ratio: median(cmd) / median(base), cmdMs: median(cmd), baseMs: median(base) };
}

/**
 * Alternates two commands (`node ...a` and `node ...b`), `runs` times each after `warmup`
 * discarded pairs, the order within a pair alternating: the ratio of their medians, a over b.
 * `beforeA(i)` runs, untimed, before each run of `a`.
 */
export function compareCommands(a, b, env, { runs, warmup = 2, checkA, checkB, beforeA }) {
  const times = { a: [], b: [] };
  for (let i = 0; i < warmup + runs; i++) {
    const pair = [];
    const run = (k, args, check) => () => {
      // beforeA: untimed preparation of each run of `a` (a one-line change before a push).
      if (k === 'a' && beforeA) beforeA(i);
      const r = timeNode(args, env);
      if (check) check(r.stdout);
      pair.push([k, r.ms]);
    };
    const [first, second] = i % 2 ? [run('b', b, checkB), run('a', a, checkA)] : [run('a', a, checkA), run('b', b, checkB)];
    first();
    second();
    if (i < warmup) continue;
    for (const [k, ms] of pair) times[k].push(ms);
  }
  const ma = median(times.a);
  const mb_ = median(times.b);
  return { ratio: ma / mb_, aMs: ma, bMs: mb_, runs };
}

// ---------------------------------------------------------------------------------------------
// HTTP load (autocannon, keep-alive, in this process).

export async function load({ url, connections, duration, method = 'GET', headers = {}, body }) {
  const r = await autocannon({ url, connections, pipelining: 1, duration, method, headers, body });
  const ok = r['2xx'];
  const seconds = r.duration > 0 ? r.duration : duration;
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    rps: r.requests.total / seconds,
    seconds,
    ok,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

// ---------------------------------------------------------------------------------------------
// Sizes.

/** Sum of the sizes of every file under `dir`, and the number of files. */
export function dirBytes(dir) {
  let bytes = 0;
  let files = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const sub = dirBytes(p);
      bytes += sub.bytes;
      files += sub.files;
    } else {
      bytes += lstatSync(p).size;
      files++;
    }
  }
  return { bytes, files };
}

/** Peak resident set size (VmHWM) of a process, in bytes. */
export function peakRss(pid) {
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(m[1]) * 1024;
}

export const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
