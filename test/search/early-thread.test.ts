import { readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { serve } from '../../server/serve.js';
import { closeIndexes, indexesOf, searchLimits, searchStats, searchThreadStartedAt, startSearchThread, stopSearchThread } from '../../src/search/indexes.js';
import { Spaces } from '../../src/spaces/tables.js';
import { openAsOwner } from '../helpers/owner-store.js';
import { storeWithIndex as withIndex } from '../helpers/store-with-index.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 6: a fresh `docs serve` started its search thread (a worker, SQLite's module) only
// in the indexer's first pass, after ready, and opened the organization's index file then: both
// sat between ready and the first search's answer. With `searchEarly` (docs serve) the thread is
// started and the index files opened while the store opens. The thread is stopped first, so that
// one an earlier test of this process started does not hide when this one starts (as in a fresh
// process, where none runs).

const ORG_SECTIONS = searchLimits.orgSections;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data directory with one organization whose index file exists (one space searched once). */
async function storeWithIndex(): Promise<string> {
  const dir = tempDir('search-early');
  dirs.push(dir);
  await withIndex(dir);
  return dir;
}

test('with searchEarly, the search thread starts before the store is open and opens the index file before ready', async () => {
  const dir = await storeWithIndex();
  await stopSearchThread();
  const before = searchStats.filesPreopened;
  const t0 = performance.now();
  const served = await serve({ dataDir: dir, port: 0, searchEarly: true });
  try {
    const started = searchThreadStartedAt();
    expect(started).toBeGreaterThan(t0);
    expect(started).toBeLessThan(served.timings.storeOpened);
    // The file's opening was asked of the thread first: it is open once the thread answers it.
    await expect.poll(() => searchStats.filesPreopened - before, { timeout: 20_000 }).toBe(1);
  } finally {
    await served.close();
  }
}, 60_000);

test('a start refused for a damaged store closes the index files its thread opened: no file of its own left behind', async () => {
  const dir = await storeWithIndex();
  await stopSearchThread();
  const before = searchStats.filesPreopened;
  // The thread has opened the file before the store's opening fails (under load, it can).
  startSearchThread(dir);
  await expect.poll(() => searchStats.filesPreopened - before, { timeout: 20_000 }).toBe(1);
  const walFiles = () => readdirSync(join(dir, 'search')).filter((f) => f.endsWith('-wal') || f.endsWith('-shm'));
  expect(walFiles().length).toBeGreaterThan(0);
  const space = readdirSync(join(dir, 'store')).find((f) => f.startsWith('space__'))!;
  truncateSync(join(dir, 'store', space), 10);
  await expect(serve({ dataDir: dir, port: 0, searchEarly: true })).rejects.toThrow(`store/${space}`);
  expect(walFiles()).toEqual([]);
}, 60_000);

test('without it (in-process servers of tests), or without index files, no thread starts before ready', async () => {
  const empty = tempDir('search-early');
  dirs.push(empty);
  for (const [dir, searchEarly] of [
    [await storeWithIndex(), false],
    [empty, true],
  ] as const) {
    await stopSearchThread();
    const served = await serve({ dataDir: dir, port: 0, searchEarly });
    try {
      const started = searchThreadStartedAt();
      // Started by the indexer's first pass, after serve() returned, if at all yet.
      expect(started === undefined || started > served.timings.ready).toBe(true);
    } finally {
      await served.close();
    }
  }
}, 60_000);

describe('the ranking made when the thread opens a file early', () => {
  /** A store with its index, opened in process, the thread started afresh on its directory. */
  async function opened() {
    const dir = await storeWithIndex();
    const { ctx, call, org } = await openAsOwner(dir, 'gb_api_search_early_test');
    await stopSearchThread();
    const before = searchStats.filesPreopened;
    startSearchThread(dir);
    await expect.poll(() => searchStats.filesPreopened - before, { timeout: 20_000 }).toBe(1);
    const spaces = (await ctx.store.read((tx) => tx.all(Spaces))).filter((s) => s.organization === org && !s.deletedAt);
    const word = (await indexesOf(ctx).sample(org))!;
    return { ctx, call, org, spaces, word };
  }

  test('answers the warm-up search of the same word while the index is unchanged, as a new ranking would', async () => {
    const { ctx, org, spaces, word } = await opened();
    try {
      const b = { ...searchStats };
      const kept = await indexesOf(ctx).rankOrg(org, spaces, `"${word}"*`);
      expect(searchStats.orgKept - b.orgKept).toBe(1);
      expect(kept.rows.r.length).toBeGreaterThan(0);
      // Once: the next ranking of it is made (another limit: not this context's kept ranking either).
      searchLimits.orgSections = ORG_SECTIONS - 1;
      const again = await indexesOf(ctx).rankOrg(org, spaces, `"${word}"*`);
      expect(searchStats.orgKept - b.orgKept).toBe(1);
      expect(searchStats.orgQueries - b.orgQueries).toBe(2);
      expect(again.rows).toEqual(kept.rows);
    } finally {
      searchLimits.orgSections = ORG_SECTIONS;
      await closeIndexes(ctx);
      await ctx.store.close();
    }
  }, 60_000);

  test('is not used once the index changed', async () => {
    const { ctx, call, org, word } = await opened();
    try {
      const space = (await call('createSpace', { path: { organizationId: org }, body: { title: 'More' } })).id;
      const cr = (await call('createChangeRequest', { path: { spaceId: space }, body: { subject: 'Write' } })).id;
      const changes = [{ operation: 'insert_page', title: 'Egrets', document: { markdown: `Egrets and ${word}.` } }];
      await call('updateChangeRequestContent', { path: { spaceId: space, changeRequestId: cr }, query: { compat: false }, body: { changes } });
      await call('mergeChangeRequest', { path: { spaceId: space, changeRequestId: cr } });
      const spaces = (await ctx.store.read((tx) => tx.all(Spaces))).filter((s) => s.organization === org && !s.deletedAt);
      const b = { ...searchStats };
      const ranking = await indexesOf(ctx).rankOrg(org, spaces, `"${word}"*`);
      expect(searchStats.orgKept - b.orgKept).toBe(0);
      expect(new Set(ranking.rows.space)).toEqual(new Set(spaces.map((s) => s.id)));
    } finally {
      await closeIndexes(ctx);
      await ctx.store.close();
    }
  }, 60_000);
});
