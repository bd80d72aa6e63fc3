import { afterAll, beforeAll, expect, test } from 'vitest';
import { presentWork } from '../../src/content/present.js';
import { forgetTrees } from '../../src/content/revisions.js';
import { searchIndexerIdle } from '../../src/search/indexer.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Issue 28 item 1: a fresh server's first read of a space's content runs the read until every
// shard it needs is loaded (src/store/shard-store.ts `run`), and presented every page on each
// run: without the bodies' group index, then without the segments its filters named, then with
// all of them. Bodies are now looked up before any page is presented, and nothing is presented on
// a run that missed a shard (src/content/present.ts `revisionPages`).

let s: TestServer;
let space: string;
const PAGES = 40;

beforeAll(async () => {
  s = await startServer({ dataDir: tempDir() });
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await s.api(method, path, { body });
    expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  };
  const org = (await ok('GET', '/v1/orgs')).items[0].id;
  space = (await ok('POST', `/v1/orgs/${org}/spaces`, { title: 'First read' })).id;
  const cr = await ok('POST', `/v1/spaces/${space}/change-requests`, { subject: 'Pages' });
  const changes = Array.from({ length: PAGES }, (_, i) => ({
    operation: 'insert_page',
    ref: `p${i}`,
    ...(i % 4 ? { into: `p${i - (i % 4)}` } : {}),
    title: `Page ${i}`,
    document: { markdown: `Page ${i}. ${'Some text of a page body. '.repeat(40)}` },
  }));
  await ok('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, { changes });
  await ok('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
}, 60_000);
afterAll(() => s.stop());

/** As after a restart: no shard of the space loaded, no tree kept. */
async function cold() {
  await searchIndexerIdle(s.ctx);
  forgetTrees();
  const store = s.ctx.store as ShardStore;
  const cache = (store as any).cache as Map<string, unknown>;
  for (const k of [...cache.keys()]) if (k.startsWith(`space/${space}/`)) (store as any).evict(k);
}

for (const [what, path] of [
  ['the current revision', () => `/v1/spaces/${space}/content`],
  ['the pages list', () => `/v1/spaces/${space}/content/pages`],
] as const) {
  test(`a first read of ${what} presents each page once, with its body`, async () => {
    const warm = await s.api('GET', path());
    expect(warm.status).toBe(200);
    await cold();
    presentWork.pages = 0;
    const first = await s.api('GET', path());
    expect(first.status).toBe(200);
    expect(first.body).toEqual(warm.body); // the same answer
    expect(presentWork.pages).toBe(PAGES);
    const bodies = JSON.stringify(first.body).match(/Some text of a page body/g)?.length ?? 0;
    expect(bodies).toBe(PAGES * 40);
  }, 60_000);
}
