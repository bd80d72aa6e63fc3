import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, ownerOf } from '../../src/auth/bootstrap.js';
import { invoke } from '../../src/invoke.js';
import type { Context } from '../../src/kernel/context.js';
import { openContext } from '../../src/open.js';
import { closeIndexes, indexesOf, searchLimits, searchStats } from '../../src/search/indexes.js';
import { SQLITE_PACKAGE } from '../../src/search/worker.js';
import { BIN } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// The search indexes (src/search): SQLite FTS5 per organization, in a worker thread, following
// each space's revision by re-indexing changed pages. Checked by counters, not by timings:
// pages (re)indexed and walked, slices given back to the event loop, rows an organization search
// reads.

const Database = createRequire(import.meta.url)(SQLITE_PACKAGE);

type Call = (op: string, input: object) => Promise<any>;

async function open(dir: string | undefined, ctx?: Context): Promise<{ ctx: Context; call: Call; org: string }> {
  ctx ??= await openContext(dir);
  await bootstrap(ctx, 'gb_api_search_test_owner');
  const caller = { userId: (await ownerOf(ctx))! };
  const call: Call = async (op, input) => {
    const r = await invoke(ctx!, op, input, caller);
    if (r.status >= 400) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const org = (await call('listOrganizationsForAuthenticatedUser', {})).items[0].id;
  return { ctx, call, org };
}

/** A space with `pages` pages (`body(i)` each), written in batches of 50 and merged. */
async function space(call: Call, org: string, pages: number, body: (i: number) => string, title = 'Docs'): Promise<string> {
  const id = (await call('createSpace', { path: { organizationId: org }, body: { title } })).id;
  const cr = (await call('createChangeRequest', { path: { spaceId: id }, body: { subject: 'Write' } })).id;
  for (let from = 0; from < pages; from += 50) {
    const changes = Array.from({ length: Math.min(50, pages - from) }, (_, k) => ({
      operation: 'insert_page',
      title: `Page ${from + k}`,
      document: { markdown: body(from + k) },
    }));
    await call('updateChangeRequestContent', { path: { spaceId: id, changeRequestId: cr }, query: { compat: false }, body: { changes } });
  }
  await call('mergeChangeRequest', { path: { spaceId: id, changeRequestId: cr } });
  return id;
}

async function edit(call: Call, spaceId: string, changes: object[]) {
  const cr = (await call('createChangeRequest', { path: { spaceId }, body: { subject: 'Edit' } })).id;
  for (let i = 0; i < changes.length; i += 50) {
    await call('updateChangeRequestContent', { path: { spaceId, changeRequestId: cr }, query: { compat: false }, body: { changes: changes.slice(i, i + 50) } });
  }
  await call('mergeChangeRequest', { path: { spaceId, changeRequestId: cr } });
}

const searchIn = (call: Call, spaceId: string, query: string, limit = 100) => call('searchSpaceContent', { path: { spaceId }, query: { query, limit } });
const searchOrg = (call: Call, org: string, query: string, more: object = {}) =>
  call('searchOrganizationContent', { path: { organizationId: org }, query: { query, ...more } });
const stats = () => ({ ...searchStats });
const delta = (before: typeof searchStats) =>
  Object.fromEntries(Object.entries(searchStats).map(([k, v]) => [k, v - before[k as keyof typeof searchStats]])) as typeof searchStats;

const limits = { ...searchLimits };
afterEach(() => Object.assign(searchLimits, limits));

describe('indexing a big space', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.stop());

  it('gives the event loop back between slices: /health answers while the index is built', async () => {
    const { call, org } = await open(undefined, s.ctx);
    const big = await space(call, org, 1500, (i) => `Body of page ${i} about zebras.\n\n## More\n\nText ${i}.`);
    searchLimits.sliceMs = 0; // give the loop back at every step, so the count does not depend on the machine's speed
    const before = stats();
    let turns = 0;
    let searching = true;
    const spin = () => setImmediate(() => searching && (turns++, spin()));
    spin();
    const search = s.api('GET', `/v1/spaces/${big}/search?query=zebras&limit=5`).finally(() => (searching = false));
    // Once indexing has begun, a cheap request is answered before the search is.
    while (searchStats.pagesWalked === before.pagesWalked) await new Promise((r) => setImmediate(r));
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(200);
    expect(searching).toBe(true);
    const r = await search;
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1500);
    expect(r.body.items).toHaveLength(5);
    const d = delta(before);
    expect(d.pagesIndexed).toBe(1500);
    expect(d.slices).toBeGreaterThan(100);
    expect(turns).toBeGreaterThan(100); // other callbacks ran between the slices
    // An edit of one page re-indexes that page, not the space.
    const page = r.body.items[0].id;
    await edit(call, big, [{ operation: 'update_page', page, document: { markdown: 'Now about giraffes.' } }]);
    const after = stats();
    const g = await s.api('GET', `/v1/spaces/${big}/search?query=giraffes`);
    expect(g.body.items.map((i: any) => i.id)).toEqual([page]);
    expect(delta(after).pagesIndexed).toBe(1);
    expect((await s.api('GET', `/v1/spaces/${big}/search?query=zebras&limit=1`)).body.count).toBe(1499);
  }, 120_000);
});

describe('the SQLite package', () => {
  it('is better-sqlite3 13 (Node-API) on Node 22 and later, 12 on Node 20', () => {
    const require = createRequire(import.meta.url);
    const { version } = require(`${SQLITE_PACKAGE}/package.json`);
    expect(version.split('.')[0]).toBe(Number(process.versions.node.split('.')[0]) >= 22 ? '13' : '12');
  });
});

describe('index files', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('are reused after a restart, rebuilt when missing, damaged or of another schema', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const a = await open(dir);
    const id = await space(a.call, a.org, 30, (i) => `Page ${i} explains the quokka.`);
    let before = stats();
    const first = await searchIn(a.call, id, 'quokka');
    expect(first.count).toBe(30);
    expect(delta(before).pagesIndexed).toBe(30);
    const file = join(dir, 'search', `${a.org}.sqlite`);
    expect(existsSync(file)).toBe(true);
    await a.ctx.store.close();
    await closeIndexes(a.ctx);

    // A second context (a restart) answers from the file: nothing indexed, not even walked.
    const b = await open(dir);
    before = stats();
    expect(await searchIn(b.call, id, 'quokka')).toEqual(first);
    expect(await searchOrg(b.call, b.org, 'quokka')).toMatchObject({ count: 1, items: [{ id, pages: expect.any(Array) }] });
    expect(delta(before)).toMatchObject({ pagesIndexed: 0, pagesWalked: 0 });
    await b.ctx.store.close();
    await closeIndexes(b.ctx);

    // Another schema: rebuilt.
    const db = new Database(file);
    db.pragma('user_version = 999');
    db.close();
    const c = await open(dir);
    before = stats();
    expect(await searchIn(c.call, id, 'quokka')).toEqual(first);
    expect(delta(before).pagesIndexed).toBe(30);
    await c.ctx.store.close();
    await closeIndexes(c.ctx);

    // Damaged: rebuilt, never an error.
    for (const f of readdirSync(join(dir, 'search'))) rmSync(join(dir, 'search', f));
    writeFileSync(file, 'this is not a database'.repeat(100));
    const d = await open(dir);
    before = stats();
    expect(await searchIn(d.call, id, 'quokka')).toEqual(first);
    expect(delta(before).pagesIndexed).toBe(30);

    // Missing (deleted while open): rebuilt on the next context.
    await d.ctx.store.close();
    await closeIndexes(d.ctx);
    rmSync(join(dir, 'search'), { recursive: true });
    const e = await open(dir);
    before = stats();
    expect(await searchIn(e.call, id, 'quokka')).toEqual(first);
    expect(delta(before).pagesIndexed).toBe(30);
    await e.ctx.store.close();
    await closeIndexes(e.ctx);
  }, 60_000);

  it('two contexts on the same files (two processes) both answer current results after an edit', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const a = await open(dir);
    const id = await space(a.call, a.org, 60, (i) => `Page ${i} on wombats.`);
    await searchIn(a.call, id, 'wombats');
    const b = await open(dir);
    const r = await searchIn(b.call, id, 'wombats', 1);
    await edit(a.call, id, [{ operation: 'update_page', page: r.items[0].id, document: { markdown: 'Numbats now.' } }]);
    // The store's files hold a's revision once a's store checkpoints (its commits are in its
    // journal until then: src/store/journal.ts; outside tests the lock keeps a second process off
    // a directory in use): a closes and opens again, b opens again, then both search at once.
    await a.ctx.store.close();
    await closeIndexes(a.ctx);
    await b.ctx.store.close();
    const a2 = await open(dir);
    const b2 = await open(dir);
    const [x, y] = await Promise.all([searchIn(a2.call, id, 'numbats'), searchIn(b2.call, id, 'numbats')]);
    expect(x.items.map((i: any) => i.id)).toEqual([r.items[0].id]);
    expect(y).toEqual(x);
    expect((await searchIn(b2.call, id, 'wombats')).count).toBe(59);
    for (const c of [a2, b, b2]) {
      await c.ctx.store.close().catch(() => {});
      await closeIndexes(c.ctx);
    }
  }, 60_000);
});

/** `docs search` in its own process on the data directory `dir` (the built CLI, in-process there). */
function cliSearch(dir: string, query: string, space: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'search', query, '--space', space, '--limit', '1000', '--json'], {
      env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`docs search exited ${code}: ${err}`))));
  });
}

describe('index files shared by processes', () => {
  it('stay consistent when three processes bring the same space to a new revision at once', async () => {
    const dir = tempDir();
    try {
      const a = await open(dir);
      const id = await space(a.call, a.org, 200, (i) => `Page ${i} about pangolins.`);
      const first = await searchIn(a.call, id, 'pangolins', 1000);
      expect(first.count).toBe(200);
      // 100 pages change: each process's update walks the space and re-indexes them, racing the others.
      await edit(
        a.call,
        id,
        first.items.slice(0, 100).map((p: any) => ({ operation: 'update_page', page: p.id, document: { markdown: 'Now about aardvarks.' } })),
      );
      const [x, y, z] = await Promise.all([cliSearch(dir, 'aardvarks', id), cliSearch(dir, 'aardvarks', id), searchIn(a.call, id, 'aardvarks', 1000)]);
      expect(z.count).toBe(100);
      for (const r of [x, y]) expect(r.items.map((i: any) => i.id).sort()).toEqual(z.items.map((i: any) => i.id).sort());
      expect((await searchIn(a.call, id, 'pangolins', 1000)).count).toBe(100);
      await a.ctx.store.close();
      await closeIndexes(a.ctx);
      // The file the three left answers a fresh context without any indexing.
      const b = await open(dir);
      const before = stats();
      expect((await searchIn(b.call, id, 'aardvarks', 1000)).count).toBe(100);
      expect(delta(before).pagesIndexed).toBe(0);
      await b.ctx.store.close();
      await closeIndexes(b.ctx);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('organization search', () => {
  let ctx: Context;
  let call: Call;
  let org: string;
  const spaces: string[] = [];
  beforeAll(async () => {
    ({ ctx, call, org } = await open(undefined));
    for (let i = 0; i < 12; i++) {
      // Every space has 3 pages about otters; space 7's second page has them in a heading too.
      spaces.push(
        await space(call, org, 3, (k) => (i === 7 && k === 1 ? 'Intro.\n\n## Otters\n\nAll about otters.' : `Page ${k} mentions otters once.`), `Space ${i}`),
      );
    }
  }, 60_000);
  afterAll(() => ctx.store.close());

  it('ranks the best hits across spaces, from one index, reading a bounded number of rows', async () => {
    const all = await searchOrg(call, org, 'otters');
    expect(all.count).toBe(12);
    expect(all.items[0].id).toBe(spaces[7]); // the space of the best page first
    expect(all.items[0].pages[0].sections[0]).toMatchObject({ title: 'Otters', path: 'page-1#otters' });
    expect(all.items.flatMap((s: any) => s.pages)).toHaveLength(36);

    searchLimits.orgSections = 5;
    const before = stats();
    const top = await searchOrg(call, org, 'otters');
    const d = delta(before);
    expect(d).toMatchObject({ orgQueries: 1, orgIndexes: 1 });
    expect(d.orgRows).toBeLessThanOrEqual(5);
    expect(top.items[0].id).toBe(spaces[7]);
    expect(top.items.flatMap((s: any) => s.pages.flatMap((p: any) => p.sections))).toHaveLength(5);
    // Pages of spaces: `limit` spaces per page of results.
    const one = await searchOrg(call, org, 'otters', { limit: 1 });
    expect(one.items.map((s: any) => s.id)).toEqual([spaces[7]]);
    expect(one.next).toBeDefined();
    const two = await searchOrg(call, org, 'otters', { limit: 1, page: one.next.page });
    expect(two.items.map((s: any) => s.id)).toEqual([top.items[1].id]);
  });

  it('leaves out deleted spaces, follows edits, and has no result for a query without words', async () => {
    await call('deleteSpaceById', { path: { spaceId: spaces[7] } });
    const r = await searchOrg(call, org, 'otters');
    expect(r.items.map((s: any) => s.id)).not.toContain(spaces[7]);
    expect(r.count).toBe(11);
    await call('restoreSpace', { path: { spaceId: spaces[7] } });
    const before = stats();
    expect((await searchOrg(call, org, 'otters')).items[0].id).toBe(spaces[7]);
    expect(delta(before).pagesIndexed).toBe(0); // its index was kept
    const page = (await searchIn(call, spaces[3]!, 'otters')).items[0].id;
    await edit(call, spaces[3]!, [{ operation: 'update_page', page, title: 'Beavers', document: { markdown: 'Beavers build dams.' } }]);
    const b = await searchOrg(call, org, 'beavers dams');
    expect(b.items).toMatchObject([{ id: spaces[3], pages: [{ id: page, title: 'Beavers' }] }]);
    expect((await searchOrg(call, org, '?!')).items).toEqual([]);
  });

  it('a space moved to another organization is searched there, and swept from the first one', async () => {
    const other = (await call('createOrganization', { body: { title: 'Other org' } })).id;
    const moved = spaces[5]!;
    await call('transferSpace', { path: { spaceId: moved }, body: { organization: other } });
    expect((await searchOrg(call, org, 'otters')).items.map((s: any) => s.id)).not.toContain(moved);
    expect((await searchOrg(call, other, 'otters')).items.map((s: any) => s.id)).toEqual([moved]);
    const before = stats();
    expect(await indexesOf(ctx).sweep(org)).toBe(1); // its rows left the first organization's index
    expect(delta(before).spacesDropped).toBe(1);
    expect(await indexesOf(ctx).sweep(org)).toBe(0);
    expect((await searchOrg(call, org, 'otters')).count).toBe(11);
  });

  it('a sweep given a set of spaces made before a space was created keeps that space (the indexer makes its set at the start of a pass)', async () => {
    const keep = new Set<string>(
      (await call('listSpacesInOrganizationById', { path: { organizationId: org }, query: { limit: 1000 } })).items.map((s: any) => s.id as string),
    );
    const late = await space(call, org, 1, () => 'Wombats dig burrows.');
    expect((await searchIn(call, late, 'wombats')).items).toHaveLength(1); // indexed by the search
    const before = stats();
    expect(await indexesOf(ctx).sweep(org, keep)).toBe(0);
    expect(delta(before).spacesDropped).toBe(0);
    expect((await searchIn(call, late, 'wombats')).items).toHaveLength(1);
    // A deleted space is still dropped from a sweep of live spaces, and a search of it indexes it again once restored.
    await call('deleteSpaceById', { path: { spaceId: late } });
    expect(await indexesOf(ctx).sweep(org, keep)).toBe(1);
    await call('restoreSpace', { path: { spaceId: late } });
    expect((await searchIn(call, late, 'wombats')).items).toHaveLength(1);
  });
});
