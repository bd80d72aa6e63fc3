import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/kernel/context.js';
import { searchLimits } from '../../src/search/indexes.js';
import { searchIndexerIdle, startSearchIndexer } from '../../src/search/indexer.js';
import { SQLITE_PACKAGE } from '../../src/search/worker.js';
import { searchOrganization } from '../../src/search/service.js';
import { Spaces } from '../../src/spaces/tables.js';
import { closeOwnerStore, type OwnerCall, openAsOwner } from '../helpers/owner-store.js';
import { tempDir } from '../helpers/server.js';

// The search index compresses page texts with a dictionary made from the first text it was
// given (src/search/worker.ts). A space dropped from the index (deleted, purged, moved to another
// organization) takes its text with it: the dictionary is made again from the texts that remain,
// and the others are still read back whole.
// The package the index thread uses on this Node (12 on Node 20, 13 on 22 and later).
const Database = createRequire(import.meta.url)(SQLITE_PACKAGE);
const SECRET = 'quokkasecretword';
const DICT_FROM = searchLimits.dictFrom;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(sqlite|db)$/.test(f)) out.push(p);
  }
  return out;
}
const dictionaries = (dir: string) =>
  files(join(dir, 'search')).flatMap((f) => {
    const db = new Database(f, { readonly: true });
    try {
      return (db.prepare('SELECT id, data FROM dict').all() as { id: number; data: Buffer }[]).map((r) => `${r.id}:${r.data.toString('utf8')}`);
    } catch {
      return [];
    } finally {
      db.close();
    }
  });

describe("the search index's dictionary", () => {
  let dir: string;
  let ctx: Context;
  let org: string;
  let call: OwnerCall;
  beforeAll(async () => {
    searchLimits.dictFrom = 1024; // restored after
    dir = tempDir('search-dict');
    ({ ctx, call, org } = await openAsOwner(dir, 'gb_api_search_dict_test'));
    startSearchIndexer(ctx);
  });
  afterAll(async () => {
    searchLimits.dictFrom = DICT_FROM;
    await closeOwnerStore(ctx, dir);
  });

  async function spaceWith(title: string, text: (i: number) => string) {
    const id = (await call('createSpace', { path: { organizationId: org }, body: { title } })).id;
    const cr = (await call('createChangeRequest', { path: { spaceId: id }, body: { subject: 'Pages' } })).id;
    const changes = Array.from({ length: 20 }, (_, i) => ({ operation: 'insert_page', title: `${title} ${i}`, document: { markdown: text(i) } }));
    await call('updateChangeRequestContent', { path: { spaceId: id, changeRequestId: cr }, query: { compat: false }, body: { changes } });
    await call('mergeChangeRequest', { path: { spaceId: id, changeRequestId: cr } });
    await searchIndexerIdle(ctx);
    return id;
  }
  const search = async (q: string) => {
    const spaces = await ctx.store.read((tx) => tx.all(Spaces).filter((r) => r.organization === org && !r.deletedAt));
    return (await searchOrganization(ctx, org, spaces, q)).map((x) => x.space.id);
  };

  it('is made again without the text of a space dropped from the index; the other texts still read back', async () => {
    const secret = await spaceWith('Secret', (i) => `The ${SECRET} plan, part ${i}: ${SECRET} again.\n`);
    const other = await spaceWith('Other', (i) => `An otter swims in the river, page ${i}.\n`);
    expect(dictionaries(dir).join('')).toContain(SECRET); // made from the first text indexed: the secret space's
    expect(await search('otter')).toEqual([other]);

    await call('deleteSpaceById', { path: { spaceId: secret } });
    await searchIndexerIdle(ctx);
    const now = dictionaries(dir);
    expect(now.length).toBe(1);
    expect(now.join('')).not.toContain(SECRET);
    expect(now.join('')).toContain('otter');
    expect(await search(SECRET)).toEqual([]);
    expect(await search('otter')).toEqual([other]);
    // A text packed again with the new dictionary reads back whole: its snippet is made from it.
    const spaces = await ctx.store.read((tx) => tx.all(Spaces).filter((r) => r.id === other));
    const [found] = await searchOrganization(ctx, org, spaces, 'river');
    expect(found!.hits[0]!.sections[0]!.snippet()).toContain('river');

    // A space the dictionary was not made from: dropped without packing the others again.
    const third = await spaceWith('Third', (i) => `A heron waits, page ${i}.\n`);
    await call('deleteSpaceById', { path: { spaceId: third } });
    await searchIndexerIdle(ctx);
    expect(dictionaries(dir)).toEqual(now);
  });
});
