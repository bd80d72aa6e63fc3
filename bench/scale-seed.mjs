// Seeds a store for `bench/run.mjs --scale` (bench/scale.mjs), in its own process: today's store
// keeps every row in memory, so the seeding heap of a 200,000-page store must not stay in the
// process that then drives the load (and it may need a bigger heap than Node's default).
//
//   node bench/scale-seed.mjs '{"dir":..,"marker":..,"spaces":..,"pagesPerSpace":..,"token":..,"concurrency":..,"fingerprint":..,"progress":true}'
//
// Spaces are built through the operations in-process, as bench/seed.mjs does (buildSpace: a
// change request, one updateChangeRequestContent per 50 pages, a merge), `concurrency` spaces at
// a time so that their writes share group commits. The marker (JSON: sizes, ids, seeding time)
// is written, atomically, only once the store is closed: a seed without it was interrupted.
import { renameSync, writeFileSync } from 'node:fs';
import { dirBytes } from './lib.mjs';
import { buildSpace, open, pool } from './seed.mjs';

const opts = JSON.parse(process.argv[2]);
const { dir, marker, spaces, pagesPerSpace, token, concurrency, fingerprint, progress } = opts;
const t0 = performance.now();
const { ctx, call, org } = await open(dir, token);
// The search indexes kept current as the commits happen, as `docs serve` keeps them (issue 28 item 6).
const indexer = await import('../dist/src/search/indexer.js');
indexer.startSearchIndexer(ctx);
const spaceIds = new Array(spaces);
let done = 0;
let lastReport = t0;
try {
  await pool(spaces, concurrency, async (i) => {
    spaceIds[i] = await buildSpace(call, org, i, pagesPerSpace);
    done++;
    // A line every 5% (at least 10 spaces) or every minute, so a seed of an hour says where it is.
    const now = performance.now();
    if (progress && (done % Math.max(10, Math.floor(spaces / 20)) === 0 || done === spaces || now - lastReport > 60_000)) {
      lastReport = now;
      const s = (now - t0) / 1000;
      const left = (s / done) * (spaces - done);
      process.stdout.write(`  seeding: ${done}/${spaces} spaces (${done * pagesPerSpace} pages), ${s.toFixed(0)} s, ~${left.toFixed(0)} s to go\n`);
    }
  });
  await indexer.searchIndexerIdle(ctx);
} finally {
  await indexer.stopSearchIndexer(ctx);
  await (await import('../dist/src/search/indexes.js')).closeIndexes(ctx);
  await ctx.store.close();
}
const seconds = (performance.now() - t0) / 1000;
const info = {
  spaces,
  pagesPerSpace,
  pages: spaces * pagesPerSpace,
  token,
  org,
  spaceIds,
  seconds,
  concurrency,
  fingerprint,
  seededAt: new Date().toISOString(),
  ...dirBytes(dir),
};
writeFileSync(`${marker}.tmp`, JSON.stringify(info));
renameSync(`${marker}.tmp`, marker);
