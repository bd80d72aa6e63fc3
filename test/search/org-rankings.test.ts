import { createRequire } from 'node:module';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, Context } from '../../src/kernel/context.js';
import { invoke } from '../../src/invoke.js';
import { serializedBytes } from '../../src/kernel/serialized.js';
import { indexesOf, searchStats } from '../../src/search/indexes.js';
import { SQLITE_PACKAGE } from '../../src/search/worker.js';
import { closeOwnerStore, type OwnerCall, openAsOwner } from '../helpers/owner-store.js';
import { tempDir } from '../helpers/server.js';

// Organization searches (src/search/indexes.ts rankOrg): a ranking is kept while the index holds
// the same rows (this process's writes and other connections' commits both end it), and the
// text of the ranked rows (snippets, page titles and paths) is read for the page of results shown.

const Database = createRequire(import.meta.url)(SQLITE_PACKAGE);

const delta = (before: typeof searchStats) =>
  Object.fromEntries(Object.entries(searchStats).map(([k, v]) => [k, v - before[k as keyof typeof searchStats]])) as typeof searchStats;

describe('organization search rankings', () => {
  let dir: string;
  let ctx: Context;
  let call: OwnerCall;
  let org: string;
  let caller: Caller;
  const spaces: string[] = [];
  const searchOrg = (query: string, more: object = {}) => call('searchOrganizationContent', { path: { organizationId: org }, query: { query, ...more } });

  beforeAll(async () => {
    dir = tempDir('search-rankings');
    ({ ctx, call, org, caller } = await openAsOwner(dir, 'gb_api_search_rankings_test'));
    for (let i = 0; i < 6; i++) {
      const id = (await call('createSpace', { path: { organizationId: org }, body: { title: `Space ${i}` } })).id;
      const cr = (await call('createChangeRequest', { path: { spaceId: id }, body: { subject: 'Write' } })).id;
      const changes = [0, 1, 2].map((k) => ({
        operation: 'insert_page',
        title: `Page ${k}`,
        document: { markdown: `Page ${k} of space ${i} is about herons${' and herons'.repeat(i)}.\n\n## Nests\n\nHerons nest in trees.` },
      }));
      await call('updateChangeRequestContent', { path: { spaceId: id, changeRequestId: cr }, query: { compat: false }, body: { changes } });
      await call('mergeChangeRequest', { path: { spaceId: id, changeRequestId: cr } });
      spaces.push(id);
    }
  }, 60_000);

  afterAll(async () => {
    await closeOwnerStore(ctx, dir);
  });

  it('answers the same search again from its ranking while the index is unchanged', async () => {
    const first = await searchOrg('herons');
    expect(first.count).toBe(6);
    const before = { ...searchStats };
    const again = await searchOrg('herons');
    expect(again).toEqual(first);
    expect(delta(before)).toMatchObject({ orgQueries: 0, orgCached: 1, orgTextRows: 0 });
    // Another query, or another set of spaces (another caller's), is ranked anew.
    const b2 = { ...searchStats };
    await searchOrg('nest');
    expect(delta(b2)).toMatchObject({ orgQueries: 1, orgCached: 0 });
  });

  it("checks the spaces' revisions once while the organization's list of them is the same", async () => {
    await searchOrg('herons');
    const before = { ...searchStats };
    const again = await searchOrg('herons');
    expect(delta(before)).toMatchObject({ spacesChecked: 0, orgCached: 1 });
    // A commit in one space: a new list (its entry changed), every revision compared again, the
    // space indexed at its new revision and found by its new text.
    const cr = (await call('createChangeRequest', { path: { spaceId: spaces[0] }, body: { subject: 'More' } })).id;
    const changes = [{ operation: 'insert_page', title: 'Egrets', document: { markdown: 'Egrets wade beside herons.' } }];
    await call('updateChangeRequestContent', { path: { spaceId: spaces[0], changeRequestId: cr }, query: { compat: false }, body: { changes } });
    await call('mergeChangeRequest', { path: { spaceId: spaces[0], changeRequestId: cr } });
    const b2 = { ...searchStats };
    const after = await searchOrg('herons');
    expect(delta(b2)).toMatchObject({ spacesChecked: 6, updates: 1, orgQueries: 1 });
    expect(after).not.toEqual(again);
    expect((await searchOrg('egrets')).items.map((i: any) => i.id)).toEqual([spaces[0]]);
  });

  it('writes the JSON of a repeated answer once, and anew when the page, a space title or the index differs', async () => {
    const raw = async (query: Record<string, unknown>) =>
      (await invoke(ctx, 'searchOrganizationContent', { path: { organizationId: org }, query }, caller)) as { body: any };
    const first = await raw({ query: 'nests', limit: 2 });
    const bytes = serializedBytes(first.body)!;
    expect(JSON.parse(bytes.toString())).toEqual(first.body);
    // Asked again: the same bytes (not serialized again), for a body equal to them.
    const again = await raw({ query: 'nests', limit: 2 });
    expect(serializedBytes(again.body)).toBe(bytes);
    expect(again.body).toEqual(first.body);
    // Its hits are not made again either: the body is parsed from the bytes when read, a copy
    // its caller owns (a change to it is not in the next answer).
    const b3 = { ...searchStats };
    const third = await raw({ query: 'nests', limit: 2 });
    expect(delta(b3)).toMatchObject({ orgQueries: 0, orgCached: 1, orgHitRows: 0 });
    expect(serializedBytes(third.body)).toBe(bytes);
    expect(third.body).toEqual(first.body);
    expect(JSON.stringify(third.body)).toBe(bytes.toString());
    third.body.items[0].title = 'changed by its caller';
    third.body.count = -1;
    expect([third.body.count, third.body.items[0].title]).toEqual([-1, 'changed by its caller']);
    expect((await raw({ query: 'nests', limit: 2 })).body).toEqual(first.body);
    // Nor are the rows of its spaces read again while no commit came (a rename is one: below).
    const read = ctx.store.read.bind(ctx.store);
    const tables: string[] = [];
    ctx.store.read = ((fn: (tx: any) => unknown) =>
      read((tx: any) =>
        fn(new Proxy(tx, { get: (t, k) => (k === 'get' ? (table: string, id: string) => (tables.push(table), t.get(table, id)) : Reflect.get(t, k)) })),
      )) as typeof ctx.store.read;
    try {
      expect(serializedBytes((await raw({ query: 'nests', limit: 2 })).body)).toBe(bytes);
    } finally {
      ctx.store.read = read;
    }
    expect(tables).not.toContain('spaces');
    // The next page of the same ranking: its own answer.
    const next = await raw({ query: 'nests', limit: 2, page: first.body.next.page });
    expect(JSON.parse(serializedBytes(next.body)!.toString())).toEqual(next.body);
    expect(next.body.items.map((i: any) => i.id)).not.toEqual(first.body.items.map((i: any) => i.id));
    // A space renamed: the index (and the ranking) is the same, the answer shows the new title.
    const shown = first.body.items[0].id;
    const old = first.body.items[0].title;
    await call('updateSpaceById', { path: { spaceId: shown }, body: { title: 'Renamed space' } });
    try {
      const renamed = await raw({ query: 'nests', limit: 2 });
      expect(renamed.body.items[0]).toMatchObject({ id: shown, title: 'Renamed space' });
      expect(JSON.parse(serializedBytes(renamed.body)!.toString())).toEqual(renamed.body);
    } finally {
      await call('updateSpaceById', { path: { spaceId: shown }, body: { title: old } });
    }
  });

  it('reads the whole rows of the spaces shown only (the summary lists the others)', async () => {
    // Every row a search's store reads get, by table: ranking needs the spaces' ids and
    // revisions only (the organization's summary); a title only for the spaces of the page shown.
    const got: string[] = [];
    const read = ctx.store.read.bind(ctx.store);
    ctx.store.read = ((fn: (tx: any) => unknown) =>
      read((tx: any) =>
        fn(
          new Proxy(tx, {
            get: (t, k) => (k === 'get' ? (table: string, id: string) => (got.push(`${table}:${id}`), t.get(table, id)) : Reflect.get(t, k)),
          }),
        ),
      )) as typeof ctx.store.read;
    try {
      const one = await searchOrg('nests', { limit: 1 });
      expect(one.count).toBe(6);
      expect(got.filter((g) => g.startsWith('spaces:'))).toEqual([`spaces:${one.items[0].id}`]);
    } finally {
      ctx.store.read = read;
    }
  });

  it('reads the text of the spaces shown only', async () => {
    const before = { ...searchStats };
    const one = await searchOrg('trees', { limit: 1 });
    expect(one.count).toBe(6);
    expect(one.items).toHaveLength(1);
    const d = delta(before);
    expect(d.orgRows).toBe(18); // every page's "Nests" section ranked...
    expect(d.orgTextRows).toBe(3); // ...the text of the shown space's read
    expect(one.items[0].pages.flatMap((p: any) => p.sections.map((s: any) => s.body))).toEqual(Array(3).fill('Herons nest in trees.'));
    // The next page of results reads the next space's text, from the same ranking.
    const b2 = { ...searchStats };
    const two = await searchOrg('trees', { limit: 1, page: one.next.page });
    expect(two.items.map((s: any) => s.id)).not.toEqual(one.items.map((s: any) => s.id));
    expect(delta(b2)).toMatchObject({ orgQueries: 0, orgCached: 1, orgTextRows: 3 });
  });

  it('ranks anew after an edit, and after another connection (another process) changed the index file', async () => {
    const before = await searchOrg('herons');
    // An edit: the indexes follow the space's revision, the ranking is made again.
    const space = spaces[0]!;
    const page = before.items.find((s: any) => s.id === space).pages[0].id;
    const cr = (await call('createChangeRequest', { path: { spaceId: space }, body: { subject: 'Edit' } })).id;
    const many = `Herons${' herons'.repeat(20)}.`;
    await call('updateChangeRequestContent', {
      path: { spaceId: space, changeRequestId: cr },
      query: { compat: false },
      body: { changes: [{ operation: 'update_page', page, title: 'Herons everywhere', document: { markdown: many } }] },
    });
    await call('mergeChangeRequest', { path: { spaceId: space, changeRequestId: cr } });
    const b1 = { ...searchStats };
    const after = await searchOrg('herons');
    expect(delta(b1).orgQueries).toBe(1);
    expect(after.items[0].pages[0]).toMatchObject({ id: page, title: 'Herons everywhere' });

    // Another connection writes the file (as another process sharing the data directory would):
    // SQLite's data_version moves, the ranking and the text read with it are not reused.
    const file = indexesOf(ctx).where(org).file!;
    const other = new Database(file);
    try {
      other.pragma('busy_timeout = 5000');
      // A page's text as the index keeps it (src/search/worker.ts `pack`): a byte naming the
      // dictionary (0: none, the text of this test is too small to make one), JSON deflated.
      const row = other.prepare(`SELECT t.first, t.text FROM pages p JOIN texts t ON t.first = p.first WHERE p.id = ?`).get(page) as {
        first: number;
        text: Buffer;
      };
      expect(row.text[0]).toBe(0);
      const text = JSON.parse(inflateRawSync(row.text.subarray(1)).toString('utf8'));
      text[0] = 'Renamed elsewhere';
      other.prepare(`UPDATE texts SET text = ? WHERE first = ?`).run(Buffer.concat([Buffer.of(0), deflateRawSync(JSON.stringify(text))]), row.first);
    } finally {
      other.close();
    }
    const b2 = { ...searchStats };
    const renamed = await searchOrg('herons');
    expect(delta(b2)).toMatchObject({ orgQueries: 1, orgCached: 0 });
    expect(renamed.items[0].pages[0]).toMatchObject({ id: page, title: 'Renamed elsewhere' });
  });
});
