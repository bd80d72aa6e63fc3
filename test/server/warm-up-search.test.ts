import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { serve } from '../../server/serve.js';
import { WARM_UP_SEARCH } from '../../server/warm-up.js';
import { closeIndexes, indexesOf, searchStats, searchThreadIdle, startSearchThread, stopSearchThread } from '../../src/search/indexes.js';
import { searchCodeWarmUps, warmUpSearchWord } from '../../src/search/service.js';
import { openAsOwner } from '../helpers/owner-store.js';
import { tempDir } from '../helpers/server.js';
import { storeWithIndex } from '../helpers/store-with-index.js';

// Issue 28 item 1: a fresh server's first search cost ~2.5x the CPU of a warm one on its main
// thread: the code a search runs on its query's words (regular expressions compiled on their first
// and second runs), the operation's validators, and its paths through the index thread's answers
// (docs/manual/performance.md, "First requests"). The indexer's warm-up search ran them only once
// the first requests went quiet. Before ready, the warm-up now runs the first two, and searches the
// first space when the search thread started early is idle: never waiting for it, writing nothing.

/** The sizes of a directory's files (recursively), but SQLite's shared-memory index (its read marks change on reads). */
function sizes(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const st = statSync(join(dir, f));
    if (st.isFile() && !f.endsWith('-shm') && f !== 'lock.json') out[f] = st.size;
  }
  return out;
}

/** Starts the search thread afresh on `dir` and waits until it opened its index file (idle). */
async function idleThread(dir: string) {
  await stopSearchThread();
  const before = searchStats.filesPreopened;
  startSearchThread(dir);
  await expect.poll(() => searchStats.filesPreopened - before, { timeout: 20_000 }).toBe(1);
  await expect.poll(() => searchThreadIdle(), { timeout: 20_000 }).toBe(true);
}

test('the warm-up searches the first space for a word of its index when the early search thread is idle, and writes nothing', async () => {
  const dir = tempDir('warm-up-search');
  await storeWithIndex(dir);
  await idleThread(dir); // as a start whose thread answered before the warm-up came to its search
  const before = sizes(dir);
  const b = { ...searchStats };
  const served = await serve({ dataDir: dir, port: 0, warmUp: true, searchEarly: true });
  try {
    expect(served.warmedUp?.at(-1)).toEqual({ read: WARM_UP_SEARCH, status: 200 });
    // Nothing indexed: the space's index was current, and the thread had the file open.
    expect(searchStats.updates - b.updates).toBe(0);
    expect(searchStats.pagesIndexed - b.pagesIndexed).toBe(0);
    expect(sizes(dir)).toEqual(before);
  } finally {
    await served.close();
  }
}, 60_000);

test('no warm-up search without a search thread (a store without index files)', async () => {
  const dir = tempDir('warm-up-search');
  await storeWithIndex(dir);
  await stopSearchThread();
  // Without searchEarly (tests' in-process servers) no thread runs before ready.
  const served = await serve({ dataDir: dir, port: 0, warmUp: true });
  try {
    expect(served.warmedUp?.map((r) => r.read)).not.toContain(WARM_UP_SEARCH);
  } finally {
    await served.close();
  }
}, 60_000);

test('no word for a warm-up search while the thread has work unanswered, for a space behind its index, or from an index the thread has not open', async () => {
  const dir = tempDir('warm-up-search');
  const { org, space } = await storeWithIndex(dir);
  await idleThread(dir);
  const { ctx, call } = await openAsOwner(dir, 'gb_api_search_early_test');
  try {
    expect(await warmUpSearchWord(ctx, space)).toBe('herons');
    // A call in flight: not behind it.
    const pending = indexesOf(ctx).sample(org);
    expect(await warmUpSearchWord(ctx, space)).toBeNull();
    await pending;
    // The space moved on (a page merged, not indexed yet): searching it would index it.
    const cr = (await call('createChangeRequest', { path: { spaceId: space }, body: { subject: 'More' } })).id;
    const changes = [{ operation: 'insert_page', title: 'Egrets', document: { markdown: 'Egrets wade.' } }];
    await call('updateChangeRequestContent', { path: { spaceId: space, changeRequestId: cr }, query: { compat: false }, body: { changes } });
    await call('mergeChangeRequest', { path: { spaceId: space, changeRequestId: cr } });
    const b = { ...searchStats };
    expect(await warmUpSearchWord(ctx, space)).toBeNull();
    expect(searchStats.updates - b.updates).toBe(0);
  } finally {
    await closeIndexes(ctx);
    await ctx.store.close();
  }
  // A store whose organization has no index file, the thread idle: none is made.
  const other = tempDir('warm-up-search');
  const owner = await openAsOwner(other, 'gb_api_search_early_test');
  try {
    const id = (await owner.call('createSpace', { path: { organizationId: owner.org }, body: { title: 'Plain' } })).id;
    expect(searchThreadIdle()).toBe(true);
    expect(await warmUpSearchWord(owner.ctx, id)).toBeNull();
    expect(existsSync(join(other, 'search'))).toBe(false);
  } finally {
    await closeIndexes(owner.ctx);
    await owner.ctx.store.close();
  }
}, 60_000);

test('the warm-up runs the code a search runs on its words, with or without a search thread', async () => {
  searchCodeWarmUps.runs = 0;
  const served = await serve({ dataDir: tempDir('warm-up-search'), port: 0, warmUp: true });
  try {
    expect(searchCodeWarmUps.runs).toBe(1);
  } finally {
    await served.close();
  }
  // Without the warm-up, nothing runs it.
  const plain = await serve({ dataDir: tempDir('warm-up-search'), port: 0 });
  try {
    expect(searchCodeWarmUps.runs).toBe(1);
  } finally {
    await plain.close();
  }
}, 60_000);
