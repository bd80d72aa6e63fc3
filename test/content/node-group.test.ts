import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentRevision, forgetTrees, readRevision, treeOf } from '../../src/content/revisions.js';
import { LegacyPageNodes, PageNodes } from '../../src/content/tables.js';
import { searchIndexerIdle } from '../../src/search/indexer.js';
import { Spaces } from '../../src/spaces/tables.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Page nodes live in the space's node group (`space/<id>/n`), apart from the bodies
// (`space/<id>/c`): reading a page tree loads no body. Stores written before kept the nodes among
// the bodies (`pageNodes`): they are still read there, and a space's first write copies its
// tree to the node group (src/content/nodes.ts).

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer({ dataDir: tempDir() });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const ok = async (method: string, path: string, body?: unknown) => {
  const r = await s.api(method, path, { body });
  expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body;
};

/** A space with three pages (one a subpage), merged. */
async function spaceWithPages() {
  const space = (await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'Nodes' })).id as string;
  const cr = await ok('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Pages' });
  await ok('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: 'The first page.' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: 'The second page.' } },
      { operation: 'insert_page', ref: 'c', into: 'a', title: 'Gamma', document: { markdown: 'A subpage.' } },
    ],
  });
  await ok('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  return space;
}

/** The titles of the current tree, read from the store's rows (no tree cached, no shard of the space loaded). */
async function coldTree(space: string, revision?: string) {
  await searchIndexerIdle(s.ctx);
  forgetTrees();
  const store = s.ctx.store as ShardStore;
  const cache = (store as any).cache as Map<string, unknown>;
  for (const k of [...cache.keys()]) if (k.startsWith(`space/${space}/`)) (store as any).evict(k);
  const titles = await store.read((tx) => {
    const walk = (pages: any[]): unknown[] => pages.map((p) => (p.pages.length ? [p.title, walk(p.pages)] : p.title));
    const rev = revision ? readRevision(tx, space, revision) : currentRevision(tx, tx.get(Spaces, space)!);
    return walk(treeOf(tx, rev));
  });
  return { titles, loaded: [...cache.keys()].filter((k) => k.startsWith(`space/${space}/`)) };
}

describe('page nodes in a group of their own', () => {
  it('a page tree is read from the node group alone: no body is loaded', async () => {
    const space = await spaceWithPages();
    const { titles, loaded } = await coldTree(space);
    expect(titles).toEqual([['Alpha', ['Gamma']], 'Beta']);
    expect(loaded.some((k) => k.startsWith(`space/${space}/n`))).toBe(true);
    expect(loaded.filter((k) => k.startsWith(`space/${space}/c`))).toEqual([]);
  });

  it('reads nodes where an older store kept them, and the first write copies the tree to the node group', async () => {
    const space = await spaceWithPages();
    // As an older store has them: every node among the bodies, none in the node group.
    await s.ctx.store.write((tx) => {
      for (const row of tx.find(PageNodes, 'space', space)) {
        tx.put(LegacyPageNodes, row);
        tx.delete(PageNodes, row.id);
      }
    });
    const nodes = () => s.ctx.store.read((tx) => [tx.find(PageNodes, 'space', space).length, tx.find(LegacyPageNodes, 'space', space).length]);
    expect(await nodes()).toEqual([0, 4]);
    const old = await coldTree(space);
    expect(old.titles).toEqual([['Alpha', ['Gamma']], 'Beta']);
    expect((await ok('GET', `/v1/spaces/${space}/content`)).pages.map((p: any) => p.title)).toEqual(['Alpha', 'Beta']);

    const before = await s.ctx.store.read((tx) => tx.get(Spaces, space)!.revision);
    // One edit of one page: the whole tree goes to the node group (the old rows stay).
    const cr = await ok('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Edit' });
    const beta = (await ok('GET', `/v1/spaces/${space}/content`)).pages[1].id;
    await ok('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
      changes: [{ operation: 'update_page', page: beta, title: 'Beta 2' }],
    });
    await ok('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const [inGroup, legacy] = await nodes();
    expect(legacy).toBe(4);
    expect(inGroup).toBeGreaterThanOrEqual(4);
    const now = await coldTree(space);
    expect(now.titles).toEqual([['Alpha', ['Gamma']], 'Beta 2']);
    expect(now.loaded.filter((k) => k.startsWith(`space/${space}/c`))).toEqual([]);
    // The revision before the edit is still read whole (its root node where it was).
    expect((await coldTree(space, before)).titles).toEqual([['Alpha', ['Gamma']], 'Beta']);
  });

  it("the push digest gives a pushed page's file record without loading any body", async () => {
    const space = (await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'Digest' })).id as string;
    const dir = tempDir();
    mkdirSync(join(dir, 'guide'));
    writeFileSync(join(dir, 'README.md'), '# Home\n\nSee [the guide](guide/start.md).\n');
    writeFileSync(join(dir, 'guide', 'start.md'), '# Start\n\nBack [home](../README.md).\n');
    const pushed = await docs(['content', 'push', dir, '--space', space, '--merge', '--json'], { DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect(pushed.status, pushed.stderr).toBe(0);
    await searchIndexerIdle(s.ctx); // the indexer reads bodies after a commit: done before the caches are emptied
    const store = s.ctx.store as ShardStore;
    const cache = (store as any).cache as Map<string, unknown>;
    for (const k of [...cache.keys()]) if (k.startsWith(`space/${space}/`)) (store as any).evict(k);
    forgetTrees();
    const digest = await s.docs('GET', `/_docs/push-digest?space=${space}`);
    expect(digest.status).toBe(200);
    const sources = JSON.stringify(digest.body.pages).match(/"sha":"[0-9a-f]{64}"/g) ?? [];
    expect(sources.length).toBe(2);
    expect([...cache.keys()].filter((k) => k.startsWith(`space/${space}/c`))).toEqual([]);
  });
});
