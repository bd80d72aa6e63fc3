import { afterAll, beforeAll, expect, test } from 'vitest';
import { presentWork, revisionPages } from '../../src/content/present.js';
import { currentRevision } from '../../src/content/revisions.js';
import { PageContents } from '../../src/content/tables.js';
import { flatten } from '../../src/content/tree.js';
import { Spaces } from '../../src/spaces/tables.js';
import type { ReadTx } from '../../src/store/port.js';
import { forgetTrees } from '../../src/content/revisions.js';
import { searchIndexerIdle } from '../../src/search/indexer.js';
import type { ShardStore } from '../../src/store/shard-store.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { pageChanges } from '../helpers/page-changes.js';

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
  const changes = pageChanges(PAGES);
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

test("a first read of the current revision loads the bodies' group index with the nodes', and the bodies group whole", async () => {
  await s.api('GET', `/v1/spaces/${space}/content`);
  await cold();
  const backend = (s.ctx.store as ShardStore).backend;
  const load = backend.load.bind(backend);
  const batches: string[][] = [];
  backend.load = (keys) => {
    batches.push(keys.filter((k) => k.startsWith(`space/${space}/`)));
    return load(keys);
  };
  try {
    expect((await s.api('GET', `/v1/spaces/${space}/content`)).status).toBe(200);
  } finally {
    backend.load = load;
  }
  const group = (g: string) => (k: string) => k === `space/${space}/${g}` || k.startsWith(`space/${space}/${g}/`);
  const rounds = batches.filter((b) => b.length);
  // The nodes' index and the bodies' in one round; then their segments.
  const indexes = rounds.findIndex((b) => b.includes(`space/${space}/n`));
  expect(rounds[indexes]).toContain(`space/${space}/c`);
  const bodySegments = rounds
    .flat()
    .filter(group('c'))
    .filter((k) => k !== `space/${space}/c`);
  expect(bodySegments.length).toBeGreaterThan(0);
  expect(rounds.filter((b) => b.some((k) => group('c')(k) && k !== `space/${space}/c`))).toHaveLength(1); // every body segment in one round
}, 60_000);

test('a bodies group holding many more rows than the pages (older bodies beside them) is read through its filters, not whole', async () => {
  for (const rows of [1_000_000, 1]) {
    const whole: string[] = [];
    const pages = await s.ctx.store.read((tx) => {
      // The group's count as the index would say it; the rest is the store's own.
      const counted = Object.create(tx) as ReadTx;
      counted.groupRows = (t, id) => (tx.groupRows!(t, id) === undefined ? undefined : rows);
      counted.wholeGroup = (t, id) => {
        whole.push(t);
        tx.wholeGroup!(t, id);
      };
      const row = tx.get(Spaces, space)!;
      return revisionPages(s.ctx, counted, row, currentRevision(tx, row));
    });
    expect(flatten(pages as never).length).toBe(PAGES);
    expect(whole.includes(PageContents), `${rows} rows`).toBe(rows === 1);
  }
}, 60_000);
