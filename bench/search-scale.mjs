// Issue 28 items 6 and 4: organization-wide search on a big store whose search indexes are kept
// at commit time (src/search/indexer.ts), against the same on an empty store, in one run.
//
//   node bench/search-scale.mjs [--scale-dir DIR] [--quick]   (DIR: a seed of bench/scale.mjs, e.g. /tmp/docs-bench-scale-2000x100)
//
// 1. The seed is copied to a scratch dir. A seed made before the indexer has no index files: the
//    indexer builds them (what `docs serve` does in the background on an old store), timed.
// 2. Index size against the store's.
// 3. A fresh `docs serve`: its first organization-wide search, then the median of the queries,
//    and searches/s with 4 clients for a few seconds; the same on an empty store (one space of
//    100 pages). RSS of the big store's server after the searches (item 4). The server's CPU per
//    search, for queries it has not seen and for repeated ones (it keeps rankings while the index
//    is unchanged), big against empty: steadier than wall times on a loaded machine.
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, fetch } from 'undici';
import { BIN, childEnv, cpuSeconds, dirBytes, median, mb, removeDir, startChild, stopChild, tempDir } from './lib.mjs';
import { queryWord } from './text.mjs';

const TOKEN = 'bench-token';
const http = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 8 });

function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function search(base, org, q) {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/orgs/${org}/search?query=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${TOKEN}` }, dispatcher: http });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${text.slice(0, 200)}`);
  return performance.now() - t0;
}

/**
 * First search, median of `queries`, searches/s with `clients` for `seconds`, RSS after; and the
 * server's CPU (all its threads, /proc) per search: for queries it has not seen (the median's,
 * but the 3 warm-up ones) and for repeated ones (the load's: it cycles through the same queries).
 * CPU holds better than wall time on a machine other work loads.
 */
async function measure(data, org, queries, seconds, env) {
  const s = await startChild('docs serve', [BIN, 'serve', '--port', '0', '--quiet', '--data', data], {
    env,
    ready: /API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
    timeoutMs: 30 * 60_000,
  });
  try {
    const first = await search(s.url, org, queries[0]);
    for (const q of queries.slice(1, 4)) await search(s.url, org, q);
    const times = [];
    const fresh = queries.slice(4);
    for (const q of queries.slice(0, 4)) times.push(await search(s.url, org, q));
    let c0 = cpuSeconds(s.child.pid);
    for (const q of fresh) times.push(await search(s.url, org, q));
    const newCpuMs = ((cpuSeconds(s.child.pid) - c0) * 1000) / fresh.length;
    let n = 0;
    c0 = cpuSeconds(s.child.pid);
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: 4 }, async (_, c) => {
        for (let i = c; performance.now() < end; i++) {
          await search(s.url, org, queries[i % queries.length]);
          n++;
        }
      }),
    );
    const repeatedCpuMs = ((cpuSeconds(s.child.pid) - c0) * 1000) / n;
    return { first, median: median(times), perSecond: n / seconds, rss: rssOf(s.child.pid), newCpuMs, repeatedCpuMs };
  } finally {
    await stopChild(s.child);
  }
}

/** Builds the index files of a store without them, as docs serve's indexer does; the seconds it took. */
async function catchUp(data) {
  const { openContext } = await import('../dist/src/open.js');
  const { startSearchIndexer, searchIndexerIdle, stopSearchIndexer } = await import('../dist/src/search/indexer.js');
  const { closeIndexes } = await import('../dist/src/search/indexes.js');
  const t0 = performance.now();
  const ctx = await openContext(data);
  startSearchIndexer(ctx);
  await searchIndexerIdle(ctx);
  await stopSearchIndexer(ctx);
  await closeIndexes(ctx);
  await ctx.store.close();
  return (performance.now() - t0) / 1000;
}

export async function searchRows(opts = {}) {
  const dir = opts.scaleDir ?? '/tmp/docs-bench-scale-2000x100';
  const seed = JSON.parse(readFileSync(join(dir, 'seeded.json'), 'utf8'));
  const quick = opts.quick ?? false;
  const rows = [];
  const row = (figure, value, shown, target, pass, context) => rows.push({ figure, value, shown, target, pass, context });
  const scratch = tempDir('search-scale');
  const emptyDir = tempDir('search-empty');
  try {
    const data = join(scratch, 'data');
    cpSync(join(dir, 'data'), data, { recursive: true });
    const had = existsSync(join(data, 'search'));
    const build = had ? 0 : await catchUp(data);
    const index = dirBytes(join(data, 'search')).bytes;
    const store = dirBytes(data).bytes - index;
    row(
      'search index size / store size',
      index / store,
      `${(index / store).toFixed(2)}x`,
      '<= 0.6x',
      index / store <= 0.6,
      `index ${mb(index)}, store ${mb(store)}, ${seed.pages} pages`,
    );
    if (!had)
      row(
        'building the index of an old store (background)',
        build,
        `${build.toFixed(1)} s`,
        'in the background',
        true,
        'seed made without index files: docs serve builds them after start, searches answer meanwhile',
      );
    // The empty store: one space of 100 pages, seeded the same way.
    const { open, buildSpace } = await import('./seed.mjs');
    const e = await open(join(emptyDir, 'data'), TOKEN);
    const { startSearchIndexer, searchIndexerIdle, stopSearchIndexer } = await import('../dist/src/search/indexer.js');
    startSearchIndexer(e.ctx);
    await buildSpace(e.call, e.org, 0, seed.pagesPerSpace);
    await searchIndexerIdle(e.ctx);
    await stopSearchIndexer(e.ctx);
    await (await import('../dist/src/search/indexes.js')).closeIndexes(e.ctx);
    await e.ctx.store.close();
    const queries = Array.from({ length: quick ? 10 : 25 }, queryWord);
    const env = childEnv(tempDir('search-config'), opts.env ?? {});
    const seconds = quick ? 3 : 6;
    const big = await measure(data, seed.org, queries, seconds, env);
    const empty = await measure(join(emptyDir, 'data'), e.org, queries, seconds, env);
    row(
      'first org search, big store (fresh server)',
      big.first,
      `${big.first.toFixed(1)} ms`,
      '<= 200 ms',
      big.first <= 200,
      `empty store ${empty.first.toFixed(1)} ms`,
    );
    const ratio = big.median / empty.median;
    row(
      'warm org search median, big / empty',
      ratio,
      `${ratio.toFixed(2)}x`,
      '<= 3x',
      ratio <= 3,
      `${big.median.toFixed(1)} ms vs ${empty.median.toFixed(1)} ms, ${queries.length} queries`,
    );
    row(
      'org searches/s, big store (4 clients)',
      big.perSecond,
      big.perSecond.toFixed(0),
      '>= 300',
      big.perSecond >= 300,
      `empty store ${empty.perSecond.toFixed(0)}/s`,
    );
    row(
      'server CPU per org search, a new query, big / empty',
      big.newCpuMs / empty.newCpuMs,
      `${(big.newCpuMs / empty.newCpuMs).toFixed(2)}x`,
      'report',
      true,
      `${big.newCpuMs.toFixed(1)} ms vs ${empty.newCpuMs.toFixed(1)} ms, ${queries.length - 4} queries`,
    );
    row(
      'server CPU per org search, a repeated query, big / empty',
      big.repeatedCpuMs / empty.repeatedCpuMs,
      `${(big.repeatedCpuMs / empty.repeatedCpuMs).toFixed(2)}x`,
      'report',
      true,
      `${big.repeatedCpuMs.toFixed(2)} ms vs ${empty.repeatedCpuMs.toFixed(2)} ms (the load's searches)`,
    );
    row('RSS of docs serve after org searches, big store', big.rss, mb(big.rss), '<= 300 MB', big.rss <= 300 * 1048576, `empty store ${mb(empty.rss)}`);
    return rows;
  } finally {
    removeDir(scratch);
    removeDir(emptyDir);
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--scale-dir');
  const rows = await searchRows({ scaleDir: at >= 0 ? argv[at + 1] : undefined, quick: argv.includes('--quick') });
  for (const r of rows) process.stdout.write(`${r.figure}: ${r.shown} (target ${r.target}: ${r.pass ? 'pass' : 'FAIL'}) [${r.context}]\n`);
  process.exit(0);
}
