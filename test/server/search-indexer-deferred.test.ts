import { expect, test } from 'vitest';
import { serve } from '../../server/serve.js';
import { workerDeferral } from '../../server/warm-up.js';
import { closeIndexes, searchStats } from '../../src/search/indexes.js';
import { indexerStats, searchIndexerIdle, searchIndexerWaiting, startSearchIndexer, stopSearchIndexer } from '../../src/search/indexer.js';
import { openAsOwner } from '../helpers/owner-store.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 1: the search indexer's first pass (the spaces' revisions read from the search
// thread, then one organization search to warm the first user's) cost ~7 ms of a fresh docs
// serve's main thread and landed on whichever first requests ran then. With deferWorkers it waits,
// like the other workers' first passes, until no request has been in flight for quietMs
// (docs/manual/performance.md, "First requests").

const TOKEN = 'gb_api_indexer_deferred_test';

/** A data directory with one space of one page, indexed: a first pass has a search to warm. */
async function indexedStore(): Promise<{ dir: string; spaceId: string }> {
  const dir = tempDir('indexer-deferred');
  const { ctx, call, org } = await openAsOwner(dir, TOKEN);
  const spaceId = (await call('createSpace', { path: { organizationId: org }, body: { title: 'S' } })).id;
  const cr = (await call('createChangeRequest', { path: { spaceId }, body: { subject: 'Edit' } })).id;
  await call('updateChangeRequestContent', {
    path: { spaceId, changeRequestId: cr },
    query: { compat: false },
    body: { changes: [{ operation: 'insert_page', title: 'Zebra', document: { markdown: 'Zebras graze.' } }] },
  });
  await call('mergeChangeRequest', { path: { spaceId, changeRequestId: cr } });
  startSearchIndexer(ctx);
  await searchIndexerIdle(ctx);
  await stopSearchIndexer(ctx);
  await closeIndexes(ctx);
  await ctx.store.close();
  return { dir, spaceId };
}

const waitFor = async (what: string, ok: () => boolean, ms = 20_000) => {
  const deadline = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

test("with deferWorkers, the search indexer's first pass and warm-up search wait until no request was in flight for quietMs", async () => {
  const { dir } = await indexedStore();
  const saved = { ...workerDeferral };
  // quietMs long enough that a loaded machine's gap between two requests stays below it.
  Object.assign(workerDeferral, { quietMs: 1000, maxMs: 20_000 });
  const passes = indexerStats.passes;
  const warmups = searchStats.warmups;
  const served = await serve({ dataDir: dir, port: 0, deferWorkers: true, searchEarly: true });
  try {
    expect(searchIndexerWaiting(served.ctx)).toBe(true);
    // Requests one after another, for longer than quietMs: no pass yet.
    const until = performance.now() + 1500;
    while (performance.now() < until) {
      await (await fetch(`${served.url}/health`)).text();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(indexerStats.passes).toBe(passes);
    expect(searchStats.warmups).toBe(warmups);
    const quiet = performance.now();
    await waitFor('the warm-up search', () => searchStats.warmups > warmups);
    expect(performance.now() - quiet).toBeGreaterThanOrEqual(500); // the quiet period began before `quiet` was read
    expect(indexerStats.passes).toBeGreaterThan(passes);
    expect(searchIndexerWaiting(served.ctx)).toBe(false);
  } finally {
    Object.assign(workerDeferral, saved);
    await served.close();
  }
  // Without it, the first pass runs with the server, requests or not.
  const plain = await serve({ dataDir: dir, port: 0 });
  try {
    expect(searchIndexerWaiting(plain.ctx)).toBe(false);
    await waitFor('the warm-up search', () => searchStats.warmups > warmups + 1);
  } finally {
    await plain.close();
  }
}, 60_000);

test('a search before the deferred first pass answers, and waiting for the indexer runs the pass at once', async () => {
  const { dir, spaceId } = await indexedStore();
  const saved = { ...workerDeferral };
  Object.assign(workerDeferral, { quietMs: 60_000, maxMs: 60_000 });
  const served = await serve({ dataDir: dir, port: 0, deferWorkers: true, searchEarly: true });
  try {
    expect(searchIndexerWaiting(served.ctx)).toBe(true);
    const res = await fetch(`${served.url}/v1/spaces/${spaceId}/search?query=zebras`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).items.map((h: { title: string }) => h.title)).toEqual(['Zebra']);
    expect(searchIndexerWaiting(served.ctx)).toBe(true);
    const passes = indexerStats.passes;
    await searchIndexerIdle(served.ctx); // what the bench's seeding and tests wait on
    expect(indexerStats.passes).toBeGreaterThan(passes);
    expect(searchIndexerWaiting(served.ctx)).toBe(false);
  } finally {
    Object.assign(workerDeferral, saved);
    await served.close();
  }
}, 60_000);
