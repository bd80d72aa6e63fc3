// Writes that keep up with teams (issue 28 item 7; docs/manual/performance.md): durable renames
// (PATCH /v1/spaces/{id}, spread over 64 spaces) at 32 connections, measured in one run beside
// what the same machine does without us:
//   - the embedded store (one `docs serve`) against a sequential write+fsync+rename+fsync(dir)
//     loop on the same disk (what one commit per write would reach: the ceiling group commit beats);
//   - two `docs serve` processes on one PostgreSQL schema (16 connections each; each pair of servers
//     in a database of its own) against
//     `pgbench -N` (simple-update transactions) at 32 clients on the same PostgreSQL, its tables
//     in a database of their own, dropped after.
// The loads take turns in `rounds` rounds (order alternating), so a busy spell of the shared
// machine falls on all of them; the ratios are of the sums over the rounds.
//
// A third load, two servers alike with DOCS_AUDIT=off on a schema of their own, gives the audit
// log's cost on PostgreSQL (on / off) in the same rounds.
//
// The CPU of a write is split (the servers', PostgreSQL's, the load generator's) beside that of a
// pgbench transaction (PostgreSQL's, pgbench's): on a machine of few cores all of them share, the
// ratio to pgbench follows the CPU each side spends per unit.
//
//   node bench/pg-writes.mjs [--seconds N] [--rounds N] [--pg postgres://...] [--bin path/to/bin/run.js]
//                            [--only pgServers,pgAuditOff] [--cpu-prof DIR (the first PostgreSQL server)]
//                            [--vs OTHER/bin/run.cjs (an embedded server of that build too, in the same rounds:
//                             its writes/s and CPU per write beside ours, an A/B of the embedded store)]
//                            [--vs-pg OTHER/bin/run.cjs (two PostgreSQL servers of that build too, audit on, on a
//                             schema of their own, in the same rounds: an A/B of the PostgreSQL store)]
//                            [--warm-up SECONDS (each server's writes before the rounds; default 1: see the warm-up below)]
//   node bench/run.mjs --pg
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { renames, seedRenameSpaces } from './renames.mjs';
import { BIN, childEnv, startChild, stopChild, tempDir, cpuSeconds } from './lib.mjs';

const TOKEN = 'bench-token';
const SPACES = 64;
const ready = /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/;

/**
 * Commits/s of the simplest durable commit one at a time: write a file of `bytes` (a small
 * shard's size), fsync it, rename it over the last, fsync the directory (src/store/durable-file.ts's
 * steps), for `seconds`, in `dir` (on the embedded store's disk).
 */
function sequentialCommits(dir, seconds, bytes = 2048) {
  const data = Buffer.alloc(bytes, 'x');
  const target = join(dir, 'shard.json');
  const until = Date.now() + seconds * 1000;
  const t0 = Date.now();
  let n = 0;
  while (Date.now() < until) {
    const tmp = `${target}.${n}.tmp`;
    const fd = openSync(tmp, 'w');
    writeSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, target);
    const d = openSync(dir, 'r');
    fsyncSync(d);
    closeSync(d);
    n++;
  }
  return { n, seconds: (Date.now() - t0) / 1000 };
}

/** The pgbench binary: on the PATH, or PostgreSQL 15's own bin directory. */
function pgbenchBin() {
  if (spawnSync('pgbench', ['--version']).status === 0) return 'pgbench';
  const own = '/usr/lib/postgresql/15/bin/pgbench';
  if (existsSync(own)) return own;
  throw new Error('pgbench not found: install postgresql-contrib (or the postgresql-15 package: /usr/lib/postgresql/15/bin/pgbench)');
}

/** pgbench's connection flags for `url`, and its environment (PGPASSWORD from the URL). */
function pgbenchTarget(url, database) {
  const u = new URL(url);
  const args = ['-h', u.hostname || '127.0.0.1', '-p', u.port || '5432', '-U', decodeURIComponent(u.username || 'postgres'), database];
  return { args, env: { ...process.env, ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}) } };
}

/** TPS of `pgbench -N` (no initial connection time) at `clients` clients for `seconds`. */
function pgbench(bin, url, database, clients, seconds) {
  const t = pgbenchTarget(url, database);
  const r = spawnSync(bin, ['-N', '-c', String(clients), '-j', '2', '-T', String(Math.max(3, Math.round(seconds))), ...t.args], {
    env: t.env,
    encoding: 'utf8',
  });
  const m = /tps = ([\d.]+) \(without initial connection time\)/.exec(r.stdout ?? '');
  if (r.status !== 0 || !m) throw new Error(`pgbench failed (${r.status}): ${r.stderr}${r.stdout}`);
  const tx = /number of transactions actually processed: (\d+)/.exec(r.stdout);
  return { tps: Number(m[1]), transactions: tx ? Number(tx[1]) : NaN };
}

const rate = (s) => s.ok / s.seconds;

/**
 * CPU seconds PostgreSQL has spent (every `postgres` process, and what the postmaster has reaped
 * of backends that ended: pgbench's close with each run): its share of a write against its share
 * of a pgbench transaction. Whatever else uses the same PostgreSQL meanwhile is counted too.
 */
function pgCpuSeconds() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    if (!stat.includes('(postgres)')) continue;
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += Number(f[11]) + Number(f[12]);
    // The postmaster (its parent is no postgres): the CPU of the backends it has reaped.
    if (!isPostgres(f[1])) total += Number(f[13]) + Number(f[14]);
  }
  return total / 100;
}

function isPostgres(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(postgres)');
  } catch {
    return false;
  }
}

/** This process's CPU seconds (the load generator: autocannon runs in it) and its reaped children's (pgbench, run by spawnSync). */
function ownCpu() {
  const u = process.cpuUsage();
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return { self: (u.user + u.system) / 1e6, children: (Number(f[13]) + Number(f[14])) / 100 };
}

const cpuOf = (children) => children.reduce((s, c) => s + cpuSeconds(c.child.pid), 0);

/**
 * Rows (bench/run.mjs's `{ figure, value, shown, target, pass, context }`): the embedded store's
 * writes/s with the sequential loop's ceiling beside it, two PostgreSQL servers' writes/s, and
 * their ratio to pgbench's TPS, all measured in this run.
 */
export async function pgWritesRows({
  seconds = 6,
  rounds = 3,
  pgUrl,
  bin = BIN,
  only,
  cpuProf,
  vs,
  vsPg,
  warmUp = 1,
  log = (s) => process.stdout.write(s + '\n'),
  problems = [],
} = {}) {
  const PG = pgUrl || process.env.DOCS_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test';
  const pgbenchPath = pgbenchBin();
  const schema = `bench_writes_${randomBytes(4).toString('hex')}`;
  const schemaOff = `${schema}_audit_off`;
  const schemaVs = `${schema}_vs`;
  const benchDb = `docs_pgbench_${randomBytes(4).toString('hex')}`;
  // Each pair of servers in a database of its own, as pgbench's tables are: PostgreSQL (15) wakes
  // every backend LISTENing in the notifying session's database at each commit, whatever the
  // channel, so the idle pairs' listeners made each commit of the pair under load wake four more
  // backends (PostgreSQL's CPU a write +37%, the rate -25% on 2 cores: performance.md).
  const dbs = { on: `${benchDb}_on`, off: `${benchDb}_off`, vs: `${benchDb}_vs` };
  const storeUrl = (db, s) => {
    const u = new URL(PG);
    u.pathname = `/${db}`;
    u.searchParams.set('schema', s);
    return u.toString();
  };
  const env = childEnv(tempDir('pgw-config'), { DOCS_BOOTSTRAP_TOKEN: TOKEN });
  const envOff = { ...env, DOCS_AUDIT: 'off' };
  const serve = (...more) => [bin, 'serve', '--port', '0', '--quiet', ...more];
  const profiled = cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProf}`] : [];
  const dataDir = tempDir('pgw-embedded');
  const loopDir = tempDir('pgw-loop'); // beside the embedded store's (the same temp filesystem)
  const admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  const children = [];
  try {
    await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(benchDb)}`);
    const init = spawnSync(pgbenchPath, ['-i', '-s', '1', '-q', ...pgbenchTarget(PG, benchDb).args], { env: pgbenchTarget(PG, benchDb).env, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr}`);

    for (const db of Object.values(dbs)) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(db)}`);
    const store = storeUrl(dbs.on, schema);
    const blobs = tempDir('pgw-blobs');
    const embedded = await startChild('docs serve (embedded)', serve('--data', dataDir), { env, ready });
    children.push(embedded);
    const other = vs
      ? await startChild('docs serve (embedded, --vs build)', [vs, ...serve('--data', tempDir('pgw-embedded-vs')).slice(1)], { env, ready })
      : undefined;
    if (other) children.push(other);
    const p1 = await startChild('docs serve (pg 1)', [...profiled, ...serve('--store', store, '--blobs', blobs)], { env, ready });
    children.push(p1);
    const p2 = await startChild('docs serve (pg 2)', serve('--store', store, '--blobs', blobs), { env, ready });
    children.push(p2);
    const storeOff = storeUrl(dbs.off, schemaOff);
    const o1 = await startChild('docs serve (pg 1, audit off)', serve('--store', storeOff, '--blobs', blobs), { env: envOff, ready });
    children.push(o1);
    const o2 = await startChild('docs serve (pg 2, audit off)', serve('--store', storeOff, '--blobs', blobs), { env: envOff, ready });
    children.push(o2);
    const storeVs = storeUrl(dbs.vs, schemaVs);
    const serveVs = (name) => startChild(name, [vsPg, ...serve('--store', storeVs, '--blobs', blobs).slice(1)], { env, ready });
    const v1 = vsPg ? await serveVs('docs serve (pg 1, --vs-pg build)') : undefined;
    if (v1) children.push(v1);
    const v2 = vsPg ? await serveVs('docs serve (pg 2, --vs-pg build)') : undefined;
    if (v2) children.push(v2);
    const eIds = await seedRenameSpaces(embedded.url, SPACES);
    const vpIds = v1 ? await seedRenameSpaces(v1.url, SPACES) : [];
    const vIds = other ? await seedRenameSpaces(other.url, SPACES) : [];
    const pIds = await seedRenameSpaces(p1.url, SPACES);
    const oIds = await seedRenameSpaces(o1.url, SPACES);

    const per = seconds / rounds;
    const sums = {
      embedded: { ok: 0, seconds: 0, statuses: {}, cpu: 0 },
      pgServers: { ok: 0, seconds: 0, statuses: {}, cpu: 0, pgCpu: 0, genCpu: 0 },
      pgAuditOff: { ok: 0, seconds: 0, statuses: {}, cpu: 0, pgCpu: 0, genCpu: 0 },
      embeddedVs: { ok: 0, seconds: 0, statuses: {}, cpu: 0 },
      pgVs: { ok: 0, seconds: 0, statuses: {}, cpu: 0, pgCpu: 0, genCpu: 0 },
      loop: { n: 0, seconds: 0 },
      pgbench: { transactions: 0, seconds: 0, tps: [], pgCpu: 0, clientCpu: 0 },
    };
    const add = (s, r) => {
      s.ok += r.ok;
      s.seconds += r.seconds;
      for (const [k, v] of Object.entries(r.statuses)) s.statuses[k] = (s.statuses[k] ?? 0) + v;
      if (r.errors) problems.push(`pg-writes: ${r.errors} connection errors`);
    };
    /** Two PostgreSQL servers, 16 connections each, renaming `ids`; their sum into `into`. */
    const twoServers = async (into, servers, ids) => {
      const cpu0 = cpuOf(servers);
      const pg0 = pgCpuSeconds();
      const gen0 = ownCpu().self;
      const rs = await Promise.all(servers.map((s) => renames(s.url, ids, 16, per)));
      into.cpu += cpuOf(servers) - cpu0;
      into.pgCpu += pgCpuSeconds() - pg0;
      into.genCpu += ownCpu().self - gen0;
      const statuses = {};
      for (const r of rs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      add(into, { ok: rs[0].ok + rs[1].ok, seconds: Math.max(...rs.map((r) => r.seconds)), statuses, errors: rs[0].errors + rs[1].errors });
    };
    const loads = {
      embedded: async () => {
        const cpu0 = cpuOf([embedded]);
        add(sums.embedded, await renames(embedded.url, eIds, 32, per));
        sums.embedded.cpu += cpuOf([embedded]) - cpu0;
      },
      embeddedVs: async () => {
        const cpu0 = cpuOf([other]);
        add(sums.embeddedVs, await renames(other.url, vIds, 32, per));
        sums.embeddedVs.cpu += cpuOf([other]) - cpu0;
      },
      pgServers: () => twoServers(sums.pgServers, [p1, p2], pIds),
      pgAuditOff: () => twoServers(sums.pgAuditOff, [o1, o2], oIds),
      pgVs: () => twoServers(sums.pgVs, [v1, v2], vpIds),
      loop: async () => {
        const r = sequentialCommits(loopDir, per);
        sums.loop.n += r.n;
        sums.loop.seconds += r.seconds;
      },
      pgbench: async () => {
        const pg0 = pgCpuSeconds();
        const c0 = ownCpu().children;
        const r = pgbench(pgbenchPath, PG, benchDb, 32, per);
        sums.pgbench.pgCpu += pgCpuSeconds() - pg0;
        sums.pgbench.clientCpu += ownCpu().children - c0;
        sums.pgbench.transactions += r.transactions;
        sums.pgbench.seconds += r.transactions / r.tps;
        sums.pgbench.tps.push(Math.round(r.tps));
      },
    };
    // Warm-up: the servers' first writes (JIT, caches, pool connections). V8 compiles a fresh
    // server's hot functions for its first ~30 s of writes (its helper threads' CPU a write falls
    // from ~0.55 to ~0.03 ms, the main thread's from ~0.43 to ~0.23): `--warm-up 30` measures
    // servers that have been running, the default (1 s) includes most of that compiling.
    const only_ = (k) => !only || only.includes(k);
    await renames(embedded.url, eIds, 32, only_('embedded') ? warmUp : 1);
    if (other) await renames(other.url, vIds, 32, warmUp);
    await Promise.all([p1, p2].map((s) => renames(s.url, pIds, 16, only_('pgServers') ? warmUp : 1)));
    await Promise.all([o1, o2].map((s) => renames(s.url, oIds, 16, only_('pgAuditOff') ? warmUp : 1)));
    if (v1) await Promise.all([v1, v2].map((s) => renames(s.url, vpIds, 16, warmUp)));
    log(
      `  durable renames over ${SPACES} spaces at 32 connections, pgbench -N at 32 clients, the sequential fsync loop: ${rounds} alternating rounds of ${per.toFixed(1)} s`,
    );
    const loads0 = [];
    const order = ['pgbench', 'pgServers', 'loop', ...(v1 ? ['pgVs'] : []), 'pgAuditOff', 'embedded', ...(other ? ['embeddedVs'] : [])].filter(
      (k) => !only || only.includes(k) || k === 'embeddedVs' || k === 'pgVs',
    );
    for (let i = 0; i < rounds; i++) {
      loads0.push(loadavg()[0]);
      for (const k of i % 2 ? [...order].reverse() : order) await loads[k]();
    }
    const load = `load average ${Math.min(...loads0).toFixed(1)}-${Math.max(...loads0).toFixed(1)}`;
    for (const [k, s] of Object.entries({
      embedded: sums.embedded,
      'embedded (--vs)': sums.embeddedVs,
      'PostgreSQL servers': sums.pgServers,
      'PostgreSQL, audit off': sums.pgAuditOff,
      'PostgreSQL (--vs-pg)': sums.pgVs,
    })) {
      const not200 = Object.entries(s.statuses).filter(([c]) => c !== '200');
      if (not200.length) problems.push(`pg-writes (${k}): answers not 200 ${JSON.stringify(Object.fromEntries(not200))}`);
    }

    const eRate = rate(sums.embedded);
    const loopRate = sums.loop.n / sums.loop.seconds;
    const pRate = rate(sums.pgServers);
    const tps = sums.pgbench.transactions / sums.pgbench.seconds;
    const offRate = rate(sums.pgAuditOff);
    const ms = (sec) => (sec * 1000).toFixed(2);
    const cpuPer = (s) => (s.cpu + s.pgCpu + s.genCpu) / s.ok;
    const cpuPerTx = () => (sums.pgbench.pgCpu + sums.pgbench.clientCpu) / sums.pgbench.transactions;
    const cpuParts = (s) => `${ms(cpuPer(s))} ms = servers ${ms(s.cpu / s.ok)} + PostgreSQL ${ms(s.pgCpu / s.ok)} + load generator ${ms(s.genCpu / s.ok)}`;
    const cpuMs = (s) => `server CPU ${((s.cpu / s.ok) * 1000).toFixed(2)} ms per write`;
    const ctx = `${rounds} alternating rounds of ${per.toFixed(1)} s after ${warmUp} s of warm-up; ${load}`;
    const rows = [
      {
        figure: 'Writes, embedded store (durable, 32 connections)',
        value: eRate,
        shown: `${Math.round(eRate)}/s`,
        target: '>= 1000/s',
        pass: eRate >= 1000,
        context: `${(eRate / loopRate).toFixed(1)}x the sequential write+fsync+rename loop's ${Math.round(loopRate)}/s on the same disk; ${cpuMs(sums.embedded)}; ${ctx}`,
      },
      {
        figure: `Writes, embedded store / the --vs build's (${vs})`,
        value: other ? eRate / rate(sums.embeddedVs) : NaN,
        shown: `${(eRate / rate(sums.embeddedVs)).toFixed(2)}x`,
        target: 'report',
        pass: true,
        context: `${Math.round(eRate)} vs ${Math.round(rate(sums.embeddedVs))} writes/s; CPU per write ${((sums.embedded.cpu / sums.embedded.ok) * 1000).toFixed(2)} vs ${((sums.embeddedVs.cpu / sums.embeddedVs.ok) * 1000).toFixed(2)} ms (${(sums.embedded.cpu / sums.embedded.ok / (sums.embeddedVs.cpu / sums.embeddedVs.ok)).toFixed(2)}x); ${ctx}`,
      },
      {
        figure: 'Ceiling without group commit: sequential write+fsync+rename loop',
        value: loopRate,
        shown: `${Math.round(loopRate)}/s`,
        target: 'reference',
        pass: true,
        context: `${sums.loop.n} commits of 2 KB (write, fsync, rename, fsync dir) one at a time; ${ctx}`,
      },
      {
        figure: 'Writes, two servers on PostgreSQL (durable, 32 connections in all)',
        value: pRate,
        shown: `${Math.round(pRate)}/s`,
        target: '>= 2000/s',
        pass: pRate >= 2000,
        context: `${sums.pgServers.ok} writes over ${SPACES} spaces, 16 connections per server; ${cpuMs(sums.pgServers)}; ${ctx}`,
      },
      {
        figure: 'Writes, two servers on PostgreSQL / pgbench -N TPS (32 clients)',
        value: pRate / tps,
        shown: `${(pRate / tps).toFixed(2)}x`,
        target: '>= 0.7',
        pass: pRate / tps >= 0.7,
        context: `${Math.round(pRate)} writes/s vs ${Math.round(tps)} TPS (rounds ${sums.pgbench.tps.join(', ')}); ${ctx}`,
      },
      {
        // On a machine of few cores the servers, PostgreSQL and the load generator share them:
        // what each spends per write says which of them a rate is bound by.
        figure: 'CPU per write, two servers on PostgreSQL / per pgbench -N transaction',
        value: cpuPer(sums.pgServers) / cpuPerTx(),
        shown: `${(cpuPer(sums.pgServers) / cpuPerTx()).toFixed(2)}x`,
        target: 'report',
        pass: true,
        context: `per write ${cpuParts(sums.pgServers)}; per pgbench transaction ${ms(sums.pgbench.pgCpu / sums.pgbench.transactions)} ms PostgreSQL + ${ms(sums.pgbench.clientCpu / sums.pgbench.transactions)} ms pgbench${v1 ? `; the --vs-pg build per write ${cpuParts(sums.pgVs)}` : ''}; ${ctx}`,
      },
      {
        figure: `Writes, two servers on PostgreSQL / the --vs-pg build's (${vsPg})`,
        value: v1 ? pRate / rate(sums.pgVs) : NaN,
        shown: `${(pRate / rate(sums.pgVs)).toFixed(2)}x`,
        target: 'report',
        pass: true,
        context: `${Math.round(pRate)} vs ${Math.round(rate(sums.pgVs))} writes/s; CPU per write ${((sums.pgServers.cpu / sums.pgServers.ok) * 1000).toFixed(2)} vs ${((sums.pgVs.cpu / sums.pgVs.ok) * 1000).toFixed(2)} ms (${(sums.pgServers.cpu / sums.pgServers.ok / (sums.pgVs.cpu / sums.pgVs.ok)).toFixed(2)}x); ${ctx}`,
      },
      {
        figure: 'Writes, two servers on PostgreSQL: audit log on / off',
        value: pRate / offRate,
        shown: `${(pRate / offRate).toFixed(2)}x`,
        target: '>= 0.9',
        pass: pRate / offRate >= 0.9,
        context: `${Math.round(pRate)} vs ${Math.round(offRate)} writes/s; ${cpuMs(sums.pgServers)} on, ${cpuMs(sums.pgAuditOff).replace('server CPU ', '')} off; PostgreSQL's ${ms(sums.pgServers.pgCpu / sums.pgServers.ok)} vs ${ms(sums.pgAuditOff.pgCpu / sums.pgAuditOff.ok)} ms; ${ctx}`,
      },
    ].filter((r) => Number.isFinite(r.value));
    return rows;
  } finally {
    await Promise.all(children.map((c) => stopChild(c.child)));
    for (const db of Object.values(dbs)) {
      await admin
        .query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(db)} WITH (FORCE)`)
        .catch((e) => problems.push(`pg-writes: could not drop ${db}: ${e.message}`));
    }
    await admin
      .query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(benchDb)} WITH (FORCE)`)
      .catch((e) => problems.push(`pg-writes: could not drop ${benchDb}: ${e.message}`));
    await admin.end();
  }
}

// Alone: prints the rows, exits 1 when a target is missed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : dflt;
  };
  const problems = [];
  pgWritesRows({
    seconds: Number(arg('seconds', 6)),
    rounds: Number(arg('rounds', 3)),
    pgUrl: arg('pg'),
    bin: arg('bin', BIN),
    only: arg('only')?.split(','),
    cpuProf: arg('cpu-prof'),
    vs: arg('vs'),
    vsPg: arg('vs-pg'),
    warmUp: Number(arg('warm-up', 1)),
    problems,
  }).then(
    (rows) => {
      for (const r of rows) process.stdout.write(`${r.figure}: ${r.shown} (target ${r.target}: ${r.pass ? 'pass' : 'FAIL'}) [${r.context}]\n`);
      for (const p of problems) process.stdout.write(`ERROR: ${p}\n`);
      process.exit(rows.every((r) => r.pass) && !problems.length ? 0 : 1);
    },
    (err) => {
      console.error(err);
      process.exit(2);
    },
  );
}
