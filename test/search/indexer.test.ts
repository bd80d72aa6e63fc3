import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/kernel/context.js';
import { closeIndexes, indexesOf, searchLimits, searchStats } from '../../src/search/indexes.js';
import { indexerStats, searchIndexerIdle, startSearchIndexer } from '../../src/search/indexer.js';
import { searchOrganization, searchSpace } from '../../src/search/service.js';
import { Spaces } from '../../src/spaces/tables.js';
import { startWorkers, stopWorkers } from '../../src/workers.js';
import { closeOwnerStore, type OwnerCall, openAsOwner } from '../helpers/owner-store.js';
import { tempDir } from '../helpers/server.js';

// The search indexer (src/search/indexer.ts): the indexes follow commits in the background, so a
// search after them only reads; and what it keeps incrementally equals an index built from scratch.

type Call = OwnerCall;
const open = (dir: string) => openAsOwner(dir, 'gb_api_search_indexer_test');

async function change(call: Call, spaceId: string, changes: object[]) {
  const cr = (await call('createChangeRequest', { path: { spaceId }, body: { subject: 'Edit' } })).id;
  const r = await call('updateChangeRequestContent', { path: { spaceId, changeRequestId: cr }, query: { compat: false }, body: { changes } });
  await call('mergeChangeRequest', { path: { spaceId, changeRequestId: cr } });
  return r;
}

const QUERIES = ['zebra', 'giraffe', 'lion', 'moved', 'page', 'otter'];

/** Every query's results, on the organization (all spaces, and each half of them) and per space. */
async function snapshot(ctx: Context, org: string) {
  const spaces = (await ctx.store.read((tx) => tx.all(Spaces).filter((r) => r.organization === org)))
    .filter((s) => !s.deletedAt)
    .sort((a, b) => a.id.localeCompare(b.id));
  const shape = (hits: Awaited<ReturnType<Awaited<ReturnType<typeof searchSpace>>['hits']>>) =>
    hits.map((h) => ({ ...h, sections: h.sections.map((s) => ({ ...s, snippet: s.snippet() })) }));
  const out: unknown[] = [];
  for (const q of QUERIES) {
    // A caller who may read all the spaces, and callers who may read some (permissions).
    for (const some of [spaces, spaces.filter((_, i) => i % 2 === 0), spaces.filter((_, i) => i % 2 === 1)]) {
      const r = await searchOrganization(ctx, org, some, q);
      out.push(r.map((x) => ({ space: x.space.id, score: x.score, hits: shape(x.hits) })));
    }
    for (const s of spaces) {
      const found = await searchSpace(ctx, s, q);
      out.push({ space: s.id, pages: found.pages, hits: shape(await found.hits(found.pages)) });
    }
  }
  return out;
}

const DICT_FROM = searchLimits.dictFrom;

describe('the search indexer', () => {
  let warm0 = 0;
  let dir: string;
  let ctx: Context;
  let call: Call;
  let org: string;
  beforeAll(async () => {
    warm0 = searchStats.warmups;
    // The texts compressed with a dictionary made early: an
    // index kept incrementally and one built from scratch have different dictionaries, and the
    // same results.
    searchLimits.dictFrom = 1024; // restored after: the files of a test worker share modules
    dir = tempDir('search-indexer');
    ({ ctx, call, org } = await open(dir));
    startSearchIndexer(ctx);
  });
  afterAll(async () => {
    searchLimits.dictFrom = DICT_FROM;
    await closeOwnerStore(ctx, dir);
  });

  it('indexes commits in the background: a search afterwards only reads', async () => {
    const a = (await call('createSpace', { path: { organizationId: org }, body: { title: 'A' } })).id;
    await change(
      call,
      a,
      Array.from({ length: 30 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${i}`,
        document: { markdown: `About a zebra ${i}.\n\n## Lion\n\nText.` },
      })),
    );
    await searchIndexerIdle(ctx);
    const before = { ...searchStats };
    const space = (await ctx.store.read((tx) => tx.get(Spaces, a)))!;
    const r = await searchOrganization(ctx, org, [space], 'zebra');
    expect(r[0]!.hits).toHaveLength(30);
    expect(searchStats.pagesWalked - before.pagesWalked).toBe(0);
    expect(searchStats.pagesIndexed - before.pagesIndexed).toBe(0);
  });

  it('never moves an index back to a revision a stale pass read: a search right after a merge finds the merged page', async () => {
    const id = (await call('createSpace', { path: { organizationId: org }, body: { title: 'Stale' } })).id;
    await change(call, id, [{ operation: 'insert_page', title: 'First', document: { markdown: 'An okapi.' } }]);
    await searchIndexerIdle(ctx);
    const older = (await ctx.store.read((tx) => tx.get(Spaces, id)))!.revision;
    await change(call, id, [{ operation: 'insert_page', title: 'Second', document: { markdown: 'Another okapi.' } }]);
    await searchIndexerIdle(ctx);
    const space = (await ctx.store.read((tx) => tx.get(Spaces, id)))!;
    expect(space.revision).not.toBe(older);
    const indexes = indexesOf(ctx);
    // What the indexer's pass does with the revisions it read before the second merge, while a
    // search of the merged revision runs.
    const stale = indexes.ensure(org, [{ id, revision: older }]);
    const found = await searchOrganization(ctx, org, [space], 'okapi');
    await stale;
    expect(found[0]!.hits.map((h) => h.title).sort()).toEqual(['First', 'Second']);
    expect(await indexes.behind(org, [space])).toEqual([]);
    const again = await searchOrganization(ctx, org, [space], 'okapi');
    expect(again[0]!.hits).toHaveLength(2);
  });

  it("warms a search's paths once per organization, once its index has text: a server's first search finds them ready", async () => {
    // The organization's only space was indexed by the pass before: that pass warmed it.
    expect(searchStats.warmups - warm0).toBe(1);
    await change(call, (await call('createSpace', { path: { organizationId: org }, body: { title: 'W' } })).id, [
      { operation: 'insert_page', title: 'Warm', document: { markdown: 'Text.' } },
    ]);
    await searchIndexerIdle(ctx);
    expect(searchStats.warmups - warm0).toBe(1);
  });

  it('keeps indexes equal to ones built from scratch over creates, edits, moves, deletes and permission changes', async () => {
    const ids: string[] = [];
    for (const title of ['B', 'C', 'D']) ids.push((await call('createSpace', { path: { organizationId: org }, body: { title } })).id);
    const pages: string[][] = [];
    for (const [k, id] of ids.entries()) {
      const r = await change(
        call,
        id,
        Array.from({ length: 8 }, (_, i) => ({
          operation: 'insert_page',
          title: `Page ${k}.${i}`,
          document: { markdown: `A ${i % 2 ? 'zebra' : 'giraffe'} page ${i}.\n\n## Otter ${i}\n\nMore text about a lion.` },
        })),
      );
      pages.push(r.changes.map((c: any) => c.page.id));
    }
    const steps: (() => Promise<unknown>)[] = [
      () => change(call, ids[0]!, [{ operation: 'update_page', page: pages[0]![1], document: { markdown: 'Now about an otter only.' } }]),
      () => change(call, ids[0]!, [{ operation: 'update_page', page: pages[0]![2], title: 'Renamed zebra page' }]),
      () => change(call, ids[1]!, [{ operation: 'update_page', page: pages[1]![3], into: pages[1]![4] }]), // a move: paths and ancestors
      () => change(call, ids[1]!, [{ operation: 'delete_page', page: pages[1]![5] }]),
      () => change(call, ids[2]!, [{ operation: 'insert_page', title: 'Moved here', document: { markdown: 'A moved lion.' } }]),
      () => call('deleteSpaceById', { path: { spaceId: ids[2]! } }),
      () => call('restoreSpace', { path: { spaceId: ids[2]! } }),
    ];
    for (const step of steps) {
      await step();
      await searchIndexerIdle(ctx);
      const incremental = await snapshot(ctx, org);
      // From scratch: the index files removed, every space indexed again on the next search.
      await closeIndexes(ctx);
      rmSync(join(dir, 'search'), { recursive: true, force: true });
      const rebuilt = await snapshot(ctx, org);
      expect(rebuilt, `after step ${steps.indexOf(step)}`).toEqual(incremental);
    }
  }, 120_000);
});

describe('where the indexer runs', () => {
  it("in docs serve's workers, not in those an in-process command starts (its first pass checks every space)", async () => {
    const dir = tempDir();
    const { ctx } = await open(dir);
    try {
      const before = indexerStats.passes;
      startWorkers(ctx); // what `docs openapi put --wait` in process starts
      await new Promise((r) => setTimeout(r, 100));
      expect(indexerStats.passes).toBe(before);
      await stopWorkers(ctx);
      startWorkers(ctx, { server: true });
      await searchIndexerIdle(ctx);
      expect(indexerStats.passes).toBeGreaterThan(before);
      await stopWorkers(ctx);
    } finally {
      await ctx.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
