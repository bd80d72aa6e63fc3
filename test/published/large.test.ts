import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, byLabel, get, h1, links, page } from './fixture.js';

// A space of 5,000 pages (100 parts of 50 pages): a page renders with its sidebar collapsed
// beyond the current branch, and a request does no work over the whole space once its index is built;
// a first render reads its page's ancestors' navigation rows (src/urls/site/page-nav.ts), not the tree.

let s: TestServer;
let base: string;
let spaceId: string;

beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  // 100 parts of 1 + 49 pages: one change request, batches of 50 changes (the contract's limit).
  const sp = { space: await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Big' }) };
  spaceId = sp.space.id;
  const cr = await call('POST', `/v1/spaces/${sp.space.id}/change-requests`, { subject: 'Big' });
  for (let i = 0; i < 100; i++) {
    const changes: object[] = [page(`p${i}`, `Part ${i}`, `Part ${i}.`)];
    for (let j = 0; j < 49; j++) changes.push(page(`p${i}-${j}`, `Page ${i}.${j}`, `Body ${i}.${j}.`, { into: `p${i}` }));
    await call('POST', `/v1/spaces/${sp.space.id}/change-requests/${cr.id}/content?compat=false`, { changes });
  }
  await call('POST', `/v1/spaces/${sp.space.id}/change-requests/${cr.id}/merge`);
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Big Site', spaces: [sp.space.id] });
  base = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published;
}, 180_000);
afterAll(() => s?.stop());

describe('a space of 5,000 pages', () => {
  it('renders a page with the sidebar collapsed beyond the current branch', async () => {
    const r = await get(s, `${base}/part-7/page-7-42`);
    expect(r.status).toBe(200);
    expect(h1(r.doc)).toBe('Page 7.42');
    const side = links(byLabel(r.doc, 'Pages')).map((l) => l.text);
    // The 100 parts, and the 49 pages of the open part only.
    expect(side).toHaveLength(100 + 49);
    expect(side.filter((t) => t.startsWith('Page 8.'))).toEqual([]);
    expect(links(byLabel(r.doc, 'Previous and next')).map((l) => l.text)).toEqual(['← Page 7.41', 'Page 7.43 →']);
  });

  it('a first render after a restart reads the navigation rows of its ancestors, not the tree', async () => {
    const { treeWork } = await import('../../src/content/tree.js');
    const { forgetTrees } = await import('../../src/content/revisions.js');
    forgetTrees(); // what a new process holds: no tree, no index
    const before = treeWork.visits;
    const r = await get(s, `${base}/part-8`);
    expect(treeWork.visits - before).toBe(0);
    expect(r.status).toBe(200);
    expect(h1(r.doc)).toBe('Part 8');
    // The neighbours across a part's edge, as the whole index has them.
    expect(links(byLabel(r.doc, 'Previous and next')).map((l) => l.text)).toEqual(['← Page 7.48', 'Page 8.0 →']);
    expect(links(byLabel(r.doc, 'Pages')).map((l) => l.text)).toHaveLength(100 + 49);
    const first = await get(s, `${base}/part-9/page-9-0`);
    expect(links(byLabel(first.doc, 'Previous and next')).map((l) => l.text)).toEqual(['← Part 9', 'Page 9.1 →']);
    expect(treeWork.visits - before).toBe(0);
  });

  it('a first search after a restart reads no tree when every page is listed and open', async () => {
    const { treeWork } = await import('../../src/content/tree.js');
    const { forgetTrees } = await import('../../src/content/revisions.js');
    const search = async (q: string) => JSON.parse((await get(s, `${base}/~/search.json?q=${q}`)).text).groups.flatMap((g: any) => g.pages);
    expect(await search('Body')).not.toEqual([]); // the search index brought to the revision
    forgetTrees();
    const before = treeWork.visits;
    const found = await search('7.42');
    expect(treeWork.visits - before).toBe(0);
    expect(found.map((p: any) => [p.title, p.url])).toContainEqual(['Page 7.42', `${new URL(base).pathname}/part-7/page-7-42`]);
  });

  it('a tree written before navigation rows is read whole once, and its rows are derived for the next first render', async () => {
    const { treeWork } = await import('../../src/content/tree.js');
    const { forgetTrees } = await import('../../src/content/revisions.js');
    const { PageNavs } = await import('../../src/content/tables.js');
    // As an older store has it: no navigation row.
    const rows = () => s.ctx.store.read((tx) => tx.find(PageNavs, 'space', spaceId).length);
    await s.ctx.store.write((tx) => tx.find(PageNavs, 'space', spaceId).forEach((r) => tx.delete(PageNavs, r.id)));
    expect(await rows()).toBe(0);
    forgetTrees();
    let before = treeWork.visits;
    const r = await get(s, `${base}/part-11/page-11-3`);
    expect(h1(r.doc)).toBe('Page 11.3');
    expect(treeWork.visits - before).toBeGreaterThan(5000); // the whole tree, as before
    for (let i = 0; i < 200 && (await rows()) < 101; i++) await new Promise((done) => setTimeout(done, 10));
    expect(await rows()).toBe(101); // the root's and each part's
    forgetTrees();
    before = treeWork.visits;
    expect(h1((await get(s, `${base}/part-12/page-12-3`)).doc)).toBe('Page 12.3');
    expect(treeWork.visits - before).toBe(0);
  });

  it('later requests are cheap: the index is built once per revision', async () => {
    const { treeWork } = await import('../../src/content/tree.js');
    await get(s, `${base}/part-3/page-3-1`);
    const before = treeWork.visits;
    for (const p of ['part-3/page-3-2', 'part-40/page-40-48', 'part-99']) expect((await get(s, `${base}/${p}`)).status).toBe(200);
    expect(treeWork.visits - before).toBe(0);
  });
});
