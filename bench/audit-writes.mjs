// The audit log's cost on durable writes (docs/manual/performance.md#the-audit-log): PATCH
// /v1/spaces/{id} at 32 connections on two servers of the same small store, one recording audit
// events and one with DOCS_AUDIT=off, in alternating rounds, as a ratio within one run.
//
//   node bench/audit-writes.mjs [--quick] [--rounds N] [--vs OTHER/bin/run.cjs]    (alone: prints the figure)
// `--vs`: the same pair of servers of another build too, every round of the four alternating.
//   imported by bench/run.mjs ([4b])
import { BIN, childEnv, load, median, removeDir, startDocsServe, stopChild, tempDir, cpuSeconds } from './lib.mjs';
import { seedSpaces } from './seed.mjs';

const TOKEN = 'bench-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const WRITE_HEADERS = { ...AUTH, 'content-type': 'application/json' };
const WRITE_BODY = JSON.stringify({ title: 'Bench space renamed' });

async function firstSpace(base) {
  const get = async (p) => (await (await fetch(`${base}/v1${p}`, { headers: AUTH })).json()).items[0].id;
  return get(`/orgs/${await get('/orgs')}/spaces`);
}

/**
 * { on, off, ratio }: writes/s of each (sums over the rounds) and on / off. Each server has a store
 * of its own, seeded alike; after a warm-up of each, they take turns in `rounds` rounds of
 * `seconds` / `rounds` each, so a slow spell of a shared disk falls on both. `vs`: a second build's
 * pair takes its turns in the same rounds (its figures in `vs`).
 */
export async function auditWrites({ seconds = 6, rounds = 6, warmup = 1, problems = [], vs } = {}) {
  const builds = vs ? [BIN, vs] : [BIN];
  const keys = builds.flatMap((_, b) => [`on${b}`, `off${b}`]);
  const dirs = Object.fromEntries(keys.map((k) => [k, tempDir(`audit-${k}`)]));
  const config = tempDir('audit-config');
  const servers = {};
  try {
    for (const k of keys) {
      await seedSpaces(dirs[k], { token: TOKEN, spaces: 1 });
      servers[k] = await startDocsServe(dirs[k], childEnv(config, k.startsWith('off') ? { DOCS_AUDIT: 'off' } : {}), builds[Number(k.slice(-1))]);
      servers[k].target = `${servers[k].url}/v1/spaces/${await firstSpace(servers[k].url)}`;
    }
    const opts = (url, duration) => ({ url, connections: 32, method: 'PATCH', headers: WRITE_HEADERS, body: WRITE_BODY, duration });
    const check = (k, r) => {
      const not200 = r.total - (r.statuses['200'] ?? 0);
      if (not200 || r.errors || r.timeouts) problems.push(`PATCH (audit ${k}): ${not200} answers not 200, ${r.errors} errors, ${r.timeouts} timeouts`);
    };
    for (const k of keys) check(k, await load(opts(servers[k].target, warmup)));
    const sums = Object.fromEntries(keys.map((k) => [k, { total: 0, seconds: 0, cpu: 0, rounds: [] }]));
    const pairs = builds.map(() => []);
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so neither always follows the other's fsync backlog.
      const rps = {};
      for (const k of i % 2 ? [...keys].reverse() : keys) {
        const cpu0 = cpuSeconds(servers[k].pid);
        const r = await load(opts(servers[k].target, seconds / rounds));
        sums[k].cpu += cpuSeconds(servers[k].pid) - cpu0;
        check(k, r);
        sums[k].total += r.total;
        sums[k].seconds += r.seconds;
        rps[k] = r.total / r.seconds;
        sums[k].rounds.push(Math.round(rps[k]));
      }
      builds.forEach((_, b) => pairs[b].push(rps[`on${b}`] / rps[`off${b}`]));
    }
    // The server's CPU per write: what recording adds to each write, whatever the disk and the
    // other processes of a shared machine do to the throughput.
    const cpuPerWrite = (k) => (sums[k].cpu / sums[k].total) * 1000;
    const result = (b) => {
      const on = sums[`on${b}`].total / sums[`on${b}`].seconds;
      const off = sums[`off${b}`].total / sums[`off${b}`].seconds;
      return {
        on,
        off,
        ratio: on / off,
        medianPairRatio: median(pairs[b]),
        cpuMs: { on: cpuPerWrite(`on${b}`), off: cpuPerWrite(`off${b}`) },
        rounds: { on: sums[`on${b}`].rounds, off: sums[`off${b}`].rounds },
      };
    };
    return { ...result(0), ...(vs ? { vs: result(1) } : {}) };
  } finally {
    for (const s of Object.values(servers)) await stopChild(s.child);
    for (const d of [...Object.values(dirs), config]) removeDir(d);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const i = process.argv.indexOf('--rounds');
  const rounds = i > 0 ? Number(process.argv[i + 1]) : 6;
  const problems = [];
  const v = process.argv.indexOf('--vs');
  const vs = v > 0 ? process.argv[v + 1] : undefined;
  const res = await auditWrites({ seconds: (quick ? 2 : 5) * (rounds / 4), rounds, problems, vs });
  const { loadavg } = await import('node:os');
  for (const [name, r] of vs
    ? [
        ['this build', res],
        [vs, res.vs],
      ]
    : [['', res]])
    console.log(
      `${name ? `${name}: ` : ''}audit on / off: ${r.ratio.toFixed(2)}x (median of paired rounds ${r.medianPairRatio.toFixed(2)}x; ${Math.round(r.on)} vs ${Math.round(r.off)} writes/s; ` +
        `CPU per write ${r.cpuMs.on.toFixed(2)} vs ${r.cpuMs.off.toFixed(2)} ms = ${(r.cpuMs.off / r.cpuMs.on).toFixed(2)}x; ` +
        `rounds on ${r.rounds.on.join(' ')}, off ${r.rounds.off.join(' ')}; load ${loadavg()[0].toFixed(1)})`,
    );
  for (const p of problems) console.log(`problem: ${p}`);
  process.exit(problems.length ? 1 : 0);
}
