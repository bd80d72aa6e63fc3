// Durable renames in process on a store with a large catalog of committed shards (issue 28,
// "Embedded, at scale"): CPU a write and journal bytes a write, this build against another
// (`--vs`), alternating, each round in a fresh child process on its own copy of the seed.
//
//   node bench/catalog-writes.mjs --seed DIR [--vs /work/main] [--rounds 4] [--writes 4000]
//                                 [--spaces 64] [--connections 32] [--serve SECONDS]
//
// The seed: `node bench/scale-seed.mjs '{"dir":DIR,"marker":DIR.marker,"spaces":2000,"pagesPerSpace":50,
// "token":"bench-token","concurrency":16}'` (~2 min: 2,000 spaces of 50 pages, ~16,300 shards,
// ~28 KB a catalog bucket, as the 200,000-page store of `bench/run.mjs --scale`; its marker names
// the spaces). A round: `--writes` renames (a new title each) over `--spaces` spaces,
// `--connections` at a time through `invoke` (group commits as `docs serve` makes them), after
// 500 of warm-up; CPU from process.cpuUsage. Journal bytes a write: 500 more renames with the
// checkpoint held off (DOCS_JOURNAL_CHECKPOINT_BYTES), the journal's growth over them.
// `--serve SECONDS`: through `docs serve` (each build's bin/run.cjs) and HTTP instead, PATCHes
// by autocannon (bench/renames.mjs) for SECONDS after 5 s of warm-up; the server's CPU from /proc.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, childEnv, cpuSeconds, startDocsServe, stopChild, tempDir } from './lib.mjs';
import { renames } from './renames.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};

if (process.argv[2] === '--child') await child(JSON.parse(process.argv[3]));
else await main();

async function main() {
  const seed = arg('seed');
  if (!seed) throw new Error('--seed DIR (see the head of this file)');
  const marker = JSON.parse(readFileSync(`${seed}.marker`, 'utf8'));
  const builds = [ROOT, ...(arg('vs') ? [arg('vs')] : [])];
  const rounds = Number(arg('rounds', 4));
  const opts = { writes: Number(arg('writes', 4000)), spaces: Number(arg('spaces', 64)), connections: Number(arg('connections', 32)) };
  const shards = execFileSync('ls', [join(seed, 'store')])
    .toString()
    .split('\n')
    .filter(Boolean).length;
  console.log(`seed ${seed}: ${marker.spaces} spaces, ${marker.pages} pages, ${shards} shards; ${JSON.stringify(opts)}`);
  const results = new Map(builds.map((b) => [b, []]));
  if (arg('serve')) return serveRounds(seed, marker, builds, rounds, Number(arg('serve')), opts);
  for (let r = 0; r < rounds; r++) {
    for (const build of r % 2 ? [...builds].reverse() : builds) {
      const one = (mode, env = {}) => {
        const out = spawnSync(
          process.execPath,
          [join(ROOT, 'bench/catalog-writes.mjs'), '--child', JSON.stringify({ ...opts, build, seed, mode, spaceIds: marker.spaceIds, token: marker.token })],
          {
            env: { ...process.env, ...env },
            encoding: 'utf8',
            maxBuffer: 1 << 24,
          },
        );
        if (out.status !== 0) throw new Error(`${build} ${mode}: ${out.stderr}`);
        return JSON.parse(out.stdout.trim().split('\n').pop());
      };
      const cpu = one('cpu');
      const bytes = one('bytes', { DOCS_JOURNAL_CHECKPOINT_BYTES: String(2 ** 31) });
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      results.get(build).push({ ...cpu, journalBytes: bytes.journalBytes, load });
      console.log(
        `round ${r + 1} ${build}: ${cpu.cpuMs.toFixed(3)} ms CPU a write, ${cpu.rate.toFixed(0)} writes/s, ${bytes.journalBytes.toFixed(0)} journal bytes a write (load ${load})`,
      );
    }
  }
  const sum = (b, k) => mean(results, b, k);
  for (const b of builds) console.log(`${b}: mean ${sum(b, 'cpuMs').toFixed(3)} ms CPU a write, ${sum(b, 'journalBytes').toFixed(0)} journal bytes a write`);
  if (builds.length === 2) {
    const [a, v] = builds;
    console.log(
      `CPU a write, this build / --vs: ${(sum(a, 'cpuMs') / sum(v, 'cpuMs')).toFixed(2)} (paired ratios ${pairedRatios(results, a, v)}); journal bytes ${(sum(a, 'journalBytes') / sum(v, 'journalBytes')).toFixed(3)}`,
    );
  }
}

/** The mean of `key` over a build's rounds (a declaration: main runs before the module's consts are set). */
function mean(results, build, key) {
  return results.get(build).reduce((s, x) => s + x[key], 0) / results.get(build).length;
}

/** Each round's CPU a write of build `a` over `v`'s in the same round, sorted, as text. */
function pairedRatios(results, a, v) {
  return results
    .get(a)
    .map((x, i) => x.cpuMs / results.get(v)[i].cpuMs)
    .sort((p, q) => p - q)
    .map((p) => p.toFixed(2))
    .join(', ');
}

/** A copy of the seed: shard and catalog files linked (replaced by rename, never written in place), the rest copied. */
function copySeed(seed, dir, withSearch) {
  for (const d of ['store', 'checksums']) execFileSync('cp', ['-al', join(seed, d), join(dir, d)]);
  for (const d of ['logs', ...(withSearch ? ['search'] : [])]) execFileSync('cp', ['-r', join(seed, d), join(dir, d)]);
  execFileSync('cp', [join(seed, 'shards'), join(dir, 'shards')]);
}

async function serveRounds(seed, marker, builds, rounds, seconds, { spaces, connections }) {
  const ids = marker.spaceIds.slice(0, spaces);
  const results = new Map(builds.map((b) => [b, []]));
  for (let r = 0; r < rounds; r++) {
    for (const build of r % 2 ? [...builds].reverse() : builds) {
      const dir = tempDir('catalog-serve');
      copySeed(seed, dir, true); // the search indexes too: a server's indexer finds them current
      const { child, pid, url } = await startDocsServe(dir, childEnv(tempDir('catalog-serve-config')), join(build, 'bin/run.cjs'));
      try {
        await renames(url, ids, connections, 5);
        const c0 = cpuSeconds(pid);
        const w = await renames(url, ids, connections, seconds);
        const cpuMs = ((cpuSeconds(pid) - c0) * 1000) / w.ok;
        const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
        results.get(build).push({ cpuMs, rate: w.ok / w.seconds });
        console.log(
          `round ${r + 1} ${build}: ${cpuMs.toFixed(3)} ms of server CPU a write, ${(w.ok / w.seconds).toFixed(0)} writes/s, ${w.total - w.ok} not 200 (load ${load})`,
        );
      } finally {
        await stopChild(child, 30_000);
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const avg = (b, k) => mean(results, b, k);
  for (const b of builds) console.log(`${b}: mean ${avg(b, 'cpuMs').toFixed(3)} ms of server CPU a write, ${avg(b, 'rate').toFixed(0)} writes/s`);
  if (builds.length === 2) {
    const [a, v] = builds;
    console.log(
      `server CPU a write, this build / --vs: ${(avg(a, 'cpuMs') / avg(v, 'cpuMs')).toFixed(2)} (paired ${pairedRatios(results, a, v)}); rate ${(avg(a, 'rate') / avg(v, 'rate')).toFixed(2)}`,
    );
  }
}

async function child({ build, seed, mode, writes, spaces, connections, spaceIds, token }) {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-writes-'));
  try {
    copySeed(seed, dir, false); // no search indexer runs in process
    const { openContext } = await import(join(build, 'dist/src/open.js'));
    const { bootstrap, ownerOf } = await import(join(build, 'dist/src/auth/bootstrap.js'));
    const { invoke } = await import(join(build, 'dist/src/invoke.js'));
    const ctx = await openContext(dir);
    await bootstrap(ctx, token);
    const caller = { userId: await ownerOf(ctx) };
    const ids = spaceIds.slice(0, spaces);
    let n = 0;
    const run = async (count) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (next++ < count) {
            const i = n++;
            const r = await invoke(ctx, 'updateSpaceById', { path: { spaceId: ids[i % ids.length] }, body: { title: `Renamed ${i}` } }, caller);
            if (r.status >= 300) throw new Error(`updateSpaceById: ${r.status} ${JSON.stringify(r.body)}`);
          }
        }),
      );
    };
    await run(500); // warm-up: compiled, the touched buckets and shards read
    const journal = join(dir, 'journal');
    const size = () => {
      try {
        return statSync(journal).size;
      } catch {
        return 0;
      }
    };
    if (mode === 'bytes') {
      const before = size();
      await run(500);
      console.log(JSON.stringify({ journalBytes: (size() - before) / 500 }));
    } else {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await run(writes);
      const c = process.cpuUsage(c0);
      const s = (performance.now() - t0) / 1000;
      console.log(JSON.stringify({ cpuMs: (c.user + c.system) / 1000 / writes, rate: writes / s }));
    }
    await ctx.store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
