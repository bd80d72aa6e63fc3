import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { searchIndexerIdle } from '../../src/search/indexer.js';
import { Spaces } from '../../src/spaces/tables.js';
import { spaceEntry, walk } from '../../src/tree/order.js';
import { createSpace } from '../../src/spaces/service.js';
import { ownerOf } from '../../src/auth/bootstrap.js';
import { PgBackend } from '../../src/store/pg-backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf } from '../../src/store/buckets.js';
import { doctor } from '../../src/store/doctor.js';
import { DIR, dirKey } from '../../src/store/layout.js';
import { CHECKSUMS, SHARDS, bucketFile, catalogEntry, fileName, sumBucket } from '../../src/store/shard-files.js';
import { BUCKETS, MARKER, SHAPE, SUMMARIES, summaryLast, summaryRows } from '../../src/store/summaries.js';
import { SPACE_SUMMARY_FIELDS, TABLES } from '../../src/store/tables.js';
import { postgresOrSkip, withFreshSchema } from '../helpers/postgres.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// The per-organization summary of spaces (src/store/summaries.ts): it must always hold exactly
// the organization's space rows, whatever changes them, and a store without it must answer the same.

const dir = tempDir();
let s: TestServer;
let org: string;
let other: string;
let reader: { userId: string; token: string };
beforeAll(async () => {
  s = await startServer({ dataDir: dir });
  org = (await s.api('POST', '/v1/orgs', { body: { title: 'Summary' } })).body.id;
  other = (await s.api('POST', '/v1/orgs', { body: { title: 'Elsewhere' } })).body.id;
  reader = await addUser(s.ctx, org, 'read');
});
afterAll(() => s.stop());

const ok = async (method: string, path: string, body?: unknown) => {
  const r = await s.api(method, path, { body });
  expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
};
const byId = (rows: readonly { id: string }[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
/** What the summary keeps of rows: the id and its fields, an absent one null. */
const kept = (rows: any[]) => byId(rows.map((r) => Object.fromEntries([['id', r.id], ...SPACE_SUMMARY_FIELDS.map((f) => [f, r[f] ?? null])])));
/** The summary of `o` is the organization's rows, exactly. */
async function expectInStep(o: string) {
  const [summary, rows] = await s.ctx.store.read((tx) => [summaryRows(tx, Spaces, o, spaceEntry), tx.all(Spaces).filter((r) => r.organization === o)]);
  expect(summary).toBeDefined();
  expect(byId(summary!)).toEqual(kept(rows));
}
/** What the lists answer, to the owner and to a read member. */
const lists = async () =>
  JSON.parse(
    JSON.stringify({
      owner: (await s.api('GET', `/v1/orgs/${org}/spaces?limit=2`)).body,
      ownerAll: (await s.api('GET', `/v1/orgs/${org}/spaces`)).body,
      reader: (await s.api('GET', `/v1/orgs/${org}/spaces`, { token: reader.token })).body,
      collections: (await s.api('GET', `/v1/orgs/${org}/collections`)).body,
    }).replaceAll(s.url, 'URL'),
  );

describe('the summary of an organization’s spaces', () => {
  it('stays equal to the rows across create, rename, levels, move, delete, restore and transfer', async () => {
    const g = await ok('POST', `/v1/orgs/${org}/collections`, { title: 'G' });
    const a = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'A' });
    const b = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'B' });
    const c = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'C', parent: g.id, visibility: 'in-collection' });
    await expectInStep(org);
    await ok('PATCH', `/v1/spaces/${a.id}`, { title: 'A renamed' });
    await ok('PATCH', `/v1/spaces/${b.id}`, { defaultLevel: null });
    await expectInStep(org);
    expect((await s.api('GET', `/v1/orgs/${org}/spaces`, { token: reader.token })).body.items.map((x: any) => x.title)).not.toContain('B');
    await ok('POST', `/v1/spaces/${a.id}/move`, { parent: g.id });
    await ok('POST', `/v1/spaces/${c.id}/move`, { parent: null });
    await expectInStep(org);
    await ok('DELETE', `/v1/spaces/${b.id}`);
    await expectInStep(org);
    await ok('POST', `/v1/spaces/${b.id}/restore`);
    await expectInStep(org);
    const t = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'T' });
    await ok('POST', `/v1/spaces/${t.id}/transfer`, { organization: other });
    await expectInStep(org);
    await expectInStep(other);
    const titles = (await s.api('GET', `/v1/orgs/${org}/spaces`)).body.items.map((x: any) => x.title);
    expect(titles).toEqual(['A renamed', 'C', 'B']);
  });

  it('creates a space without reading its siblings (the next position is in the summary)', async () => {
    const before = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'Before' });
    const store = s.ctx.store as ShardStore;
    // The search indexer (a worker of this server) reads spaces' revisions and content after each
    // commit: let it finish what the commits so far gave it, and look at space rows only below.
    await searchIndexerIdle(s.ctx);
    // Drop every cached space shard, then create: no other space's row shard is read.
    const cache = (store as any).cache as Map<string, unknown>;
    for (const k of [...cache.keys()]) if (k.startsWith('space/')) (store as any).evict(k);
    const made = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'Last' });
    const read = [...cache.keys()].filter((k) => /^space\/[^/]+$/.test(k) && k !== `space/${made.id}`);
    expect(read).toEqual([]);
    const titles = (await s.api('GET', `/v1/orgs/${org}/spaces`)).body.items.map((x: any) => x.title);
    expect(titles.slice(-2)).toEqual([before.title, 'Last']);
    await expectInStep(org);
  });

  it('answers the same on a store without summaries, and builds them at its next open', async () => {
    const seen = await lists();
    // A store written before summaries: no summary rows, no marker.
    await s.ctx.store.write((tx: any) => {
      for (const o of [org, other]) {
        for (let b = 0; b < BUCKETS; b++) tx.delete(SUMMARIES, `spaces/${o}/${b}`);
        tx.delete(SUMMARIES, `spaces/${o}/head`);
      }
      tx.delete('meta', MARKER);
    });
    expect(await s.ctx.store.read((tx) => summaryRows(tx, Spaces, org, spaceEntry))).toBeUndefined();
    expect(await lists()).toEqual(seen);
    await s.stop();
    s = await startServer({ dataDir: dir });
    expect(await s.ctx.store.read((tx) => summaryRows(tx, Spaces, org, spaceEntry))).toBeDefined();
    await expectInStep(org);
    await expectInStep(other);
    expect(await lists()).toEqual(seen);
    // And a new space still goes last, after positions the rebuilt head took from the rows.
    await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'After rebuild' });
    expect((await s.api('GET', `/v1/orgs/${org}/spaces`)).body.items.at(-1).title).toBe('After rebuild');
    await expectInStep(org);
  });

  it('keeps only what lists need: moves and renames keep whole rows, a rename leaves the summary alone', async () => {
    const x = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'X', emoji: '1f600' });
    const y = await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'Y' });
    const bucketsText = () => s.ctx.store.read((tx: any) => JSON.stringify(Array.from({ length: BUCKETS }, (_, b) => tx.get(SUMMARIES, `spaces/${org}/${b}`))));
    const before = await bucketsText();
    expect(before).not.toContain('"X"'); // no title in the summary
    await ok('PATCH', `/v1/spaces/${x.id}`, { title: 'X renamed' });
    expect(await bucketsText()).toBe(before);
    // Moving Y before X at the root rewrites the positions of siblings the tree got from the
    // summary: each is put again whole.
    await ok('POST', `/v1/spaces/${y.id}/move`, { position: { before: { type: 'space', space: x.id } } });
    const got = await ok('GET', `/v1/spaces/${x.id}`);
    expect([got.title, got.emoji]).toEqual(['X renamed', '1f600']);
    await expectInStep(org);
  });

  it('built in the old shape (whole rows) is built again at open in the current one', async () => {
    const seen = await lists();
    // What a store of the previous version holds: whole rows in the buckets, marker built 1.
    await s.ctx.store.write((tx: any) => {
      for (let b = 0; b < BUCKETS; b++) tx.delete(SUMMARIES, `spaces/${org}/${b}`);
      for (const row of tx.all('spaces').filter((r: any) => r.organization === org)) {
        const id = `spaces/${org}/${bucketOf(row.id, BUCKETS)}`;
        const bucket = tx.get(SUMMARIES, id);
        tx.put(SUMMARIES, { id, rows: { ...bucket?.rows, [row.id]: row } });
      }
      tx.put('meta', { id: MARKER, built: 1 });
    });
    expect(await s.ctx.store.read((tx) => summaryRows(tx, Spaces, org, spaceEntry))).toBeUndefined();
    expect(await lists()).toEqual(seen);
    await s.stop();
    s = await startServer({ dataDir: dir });
    expect(await s.ctx.store.read((tx: any) => tx.get('meta', MARKER)?.built)).toBe(SHAPE);
    await expectInStep(org);
    expect(await lists()).toEqual(seen);
  });
});

describe('reading an organization’s summary and tree', () => {
  it('gives the same frozen list and walk while the summary and collections are unchanged, new ones after a change', async () => {
    const o = (await ok('POST', '/v1/orgs', { title: 'Read once' })).id;
    await ok('POST', `/v1/orgs/${o}/spaces`, { title: 'A' });
    const read = () => s.ctx.store.read((tx) => [summaryRows(tx, Spaces, o, spaceEntry)!, walk(tx, o)] as const);
    const [list, tree] = await read();
    // A read runs again after each round of shard loads: the entries are made, and sorted, once.
    expect(await read()).toEqual([list, tree]);
    const [again, treeAgain] = await read();
    expect(again).toBe(list);
    expect(treeAgain).toBe(tree);
    expect(Object.isFrozen(list) && Object.isFrozen(list[0]) && Object.isFrozen(tree)).toBe(true);
    await ok('POST', `/v1/orgs/${o}/spaces`, { title: 'B' });
    const [more, moreTree] = await read();
    expect(more).not.toBe(list);
    expect(more).toHaveLength(2);
    expect(moreTree).toHaveLength(2);
    await ok('POST', `/v1/orgs/${o}/collections`, { title: 'C' });
    const [same, withCollection] = await read();
    expect(same).toBe(more);
    expect(withCollection.map((x) => x.item.kind)).toEqual(['collection', 'space', 'space']);
  });

  it('orders a large level by position without calling a comparator, and as the comparator does with ties', async () => {
    const o = (await ok('POST', '/v1/orgs', { title: 'Large level' })).id;
    const caller = { userId: (await ownerOf(s.ctx))! };
    const made = await s.ctx.store.write((tx) => Array.from({ length: 80 }, (_, i) => createSpace(tx, s.ctx, caller, o, { title: `S${i}` }).row.id));
    // Positions shuffled (distinct integers): the tree's order is theirs.
    const positions = made.map((_, i) => (i * 37) % 80);
    await s.ctx.store.write((tx) => made.forEach((id, i) => tx.put(Spaces, { ...tx.get(Spaces, id)!, position: positions[i]! })));
    const expected = made
      .map((id, i) => [positions[i]!, id] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, id]) => id);
    const sort = vi.spyOn(Array.prototype, 'sort');
    try {
      const ids = await s.ctx.store.read((tx) => walk(tx, o).map((x) => x.item.row.id));
      expect(ids).toEqual(expected);
      expect(sort.mock.contexts.filter((a) => (a as unknown[]).length >= 64)).toEqual([]);
    } finally {
      sort.mockRestore();
    }
    // Two spaces at one position: by creation time, then id, as byPosition orders them.
    await s.ctx.store.write((tx) => tx.put(Spaces, { ...tx.get(Spaces, made[1]!)!, position: positions[0]! }));
    const tied = await s.ctx.store.read((tx) => walk(tx, o).map((x) => x.item.row.id));
    const rows = await s.ctx.store.read((tx) => made.map((id) => tx.get(Spaces, id)!));
    rows.sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    expect(tied).toEqual(rows.map((r) => r.id));
  });
});

describe('the spaces.organization directory of older stores', () => {
  it('is no longer written, and what is left of it is not taken for damage', async () => {
    const d = tempDir();
    let t = await startServer({ dataDir: d });
    const o = (await t.api('POST', '/v1/orgs', { body: { title: 'Old' } })).body.id;
    const sp = (await t.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'Kept' } })).body.id;
    await t.stop();
    const key = dirKey('spaces', 'organization', o);
    expect(existsSync(join(d, SHARDS, fileName(key)))).toBe(false);
    // What an older docs left: the directory, committed in the catalog, listing a space gone since.
    const text = JSON.stringify({ [DIR]: { [o]: { [sp]: `space/${sp}`, gone0000000000000000: 'space/gone0000000000000000' } } });
    writeFileSync(join(d, SHARDS, fileName(key)), text);
    const bucket = join(d, CHECKSUMS, bucketFile(sumBucket(fileName(key))));
    const catalog = existsSync(bucket) ? JSON.parse(readFileSync(bucket, 'utf8')) : {};
    writeFileSync(bucket, JSON.stringify({ ...catalog, [fileName(key)]: catalogEntry(text) }));
    expect((await doctor(d)).damaged).toEqual([]);
    t = await startServer({ dataDir: d });
    expect((await t.api('GET', `/v1/orgs/${o}/spaces`)).body.items.map((x: any) => x.title)).toEqual(['Kept']);
    await t.stop();
  });
});

describe('the summary on PostgreSQL', () => {
  it('is kept with the rows in the same commit, and built at open when missing', async () => {
    const url = await postgresOrSkip();
    if (!url) return;
    await withFreshSchema(url, async (schema) => {
      const openPg = () => ShardStore.open(new PgBackend(url, { schema, poolSize: 2 }), TABLES);
      const row = (id: string, organization: string, position: number) => ({
        id,
        organization,
        parent: null,
        position,
        title: id,
        createdAt: '2026-01-01T00:00:00.000Z',
        defaultLevel: 'inherit',
        revision: `r${id}`,
      });
      const inStep = async (st: ShardStore, o: string) => {
        const [summary, rows] = await st.read((tx: any) => [summaryRows(tx, Spaces, o, spaceEntry), tx.all('spaces').filter((r: any) => r.organization === o)]);
        expect(byId(summary!)).toEqual(kept(rows));
        return rows.length;
      };
      let st = await openPg();
      try {
        await st.write((tx) => {
          for (let i = 0; i < 20; i++) tx.put('spaces', row(`s${i}`, 'o1', i));
        });
        await st.write((tx) => {
          tx.put('spaces', { ...row('s3', 'o2', 0), title: 'moved' });
          tx.delete('spaces', 's4');
          tx.put('spaces', { ...row('s5', 'o1', 5), title: 'renamed' });
        });
        expect(await inStep(st, 'o1')).toBe(18);
        expect(await inStep(st, 'o2')).toBe(1);
        expect(await st.read((tx) => summaryLast(tx, Spaces, 'o1', ''))).toBe(19);
        await st.write((tx) => {
          for (let b = 0; b < BUCKETS; b++) for (const o of ['o1', 'o2']) tx.delete(SUMMARIES, `spaces/${o}/${b}`);
          tx.delete('meta', MARKER);
        });
      } finally {
        await st.close();
      }
      st = await openPg();
      try {
        expect(await inStep(st, 'o1')).toBe(18);
        expect(await inStep(st, 'o2')).toBe(1);
      } finally {
        await st.close();
      }
    });
  });
});
