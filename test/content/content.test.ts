import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { PageContents, PageNodes } from '../../src/content/tables.js';
import type { Table } from '../../src/store/port.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newSpace = async () => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id as string;
const newCr = async (space: string, subject = 'Edit') => {
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject } });
  expect(r.status).toBe(201);
  return r.body;
};
const edit = (space: string, cr: string, changes: object[], compat = false) =>
  s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content${compat ? '' : '?compat=false'}`, { body: { changes } });

describe('authoring and reading content', () => {
  it('inserts pages in a change request, merges by fast-forward, and reads them back', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    expect(cr).toMatchObject({ number: 1, status: 'open', revisionInitial: cr.revision });
    const r = await edit(space, cr.id, [
      {
        operation: 'insert_page',
        ref: 'intro',
        document: {
          markdown: '---\ndescription: Start here\n---\n# Getting started\n\nInstall it. See [the API](./api.md).\n\n## Setup\n\nRun the installer.',
        },
      },
      { operation: 'insert_page', ref: 'api', title: 'API', document: { markdown: 'Back to [intro](./intro.md).' } },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.changes.map((c: any) => c.object)).toEqual(['created_page', 'created_page']);
    const [intro, api] = r.body.changes.map((c: any) => c.page.id);
    // Nothing visible on the space before the merge.
    expect((await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages).toEqual([]);
    const m = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.number}/merge`);
    expect(m.body.result).toBe('merge');
    const rev = await s.api('GET', `/v1/spaces/${space}/content`);
    expect(rev.body).toMatchObject({ id: m.body.revision, type: 'merge', parents: [cr.revisionInitial, expect.any(String)] });
    expect(rev.body.pages.map((p: any) => [p.title, p.path])).toEqual([
      ['Getting started', 'getting-started'],
      ['API', 'api'],
    ]);
    const page = await s.api('GET', `/v1/spaces/${space}/content/page/${intro}`);
    expect(page.body).toMatchObject({ title: 'Getting started', description: 'Start here', type: 'document' });
    // Links written as paths or refs are stored as /pages/<id>.
    expect(page.body.markdown).toBe(`Install it. See [the API](/pages/${api}).\n\n## Setup\n\nRun the installer.\n`);
    const doc = await s.api('GET', `/v1/spaces/${space}/content/page/${intro}?format=document`);
    expect(doc.body.document.nodes.map((n: any) => n.type)).toEqual(['paragraph', 'heading-2', 'paragraph']);
    const byPath = await s.api('GET', `/v1/spaces/${space}/content/path/api`);
    expect(byPath.body.id).toBe(api);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`)).body).toMatchObject({ status: 'merged', revisionMerged: m.body.revision });
  });

  it('rejects a batch whole, naming the failing change', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const r = await edit(space, cr.id, [
      { operation: 'insert_page', title: 'A', document: { markdown: 'a' } },
      { operation: 'update_page', page: 'nope', title: 'B' },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^changes\[1\]\.page: no page nope/);
    const after = await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}`);
    expect(after.body.revision).toBe(cr.revision);
    const dup = await edit(space, cr.id, [
      { operation: 'insert_page', title: 'Same', document: { markdown: '' } },
      { operation: 'insert_page', title: 'Same', document: { markdown: '' } },
    ]);
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toMatch(/changes\[1\]\.slug: "same" is already used/);
  });

  it('updates, moves and deletes pages; a change request started before another merge still merges', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const r = await edit(space, cr.id, [
      { operation: 'insert_page', title: 'Parent', document: { markdown: 'p' } },
      { operation: 'insert_page', title: 'Child', document: { markdown: 'c' } },
    ]);
    const [parent, child] = r.body.changes.map((c: any) => c.page.id);
    const u = await edit(space, cr.id, [
      { operation: 'update_page', page: child, into: parent, title: 'Kid', document: { markdown: 'new body' } },
      { operation: 'update_page', page: parent, into: child },
    ]);
    expect(u.status).toBe(400);
    expect(u.body.error.message).toMatch(/changes\[1\]\.into: a page cannot move into itself/);
    await edit(space, cr.id, [{ operation: 'update_page', page: child, into: parent, title: 'Kid', document: { markdown: 'new body' } }]);
    const other = await newCr(space, 'Other');
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const late = await s.api('POST', `/v1/spaces/${space}/change-requests/${other.id}/merge`);
    expect(late.body.result).toBe('merge');
    const kid = await s.api('GET', `/v1/spaces/${space}/content/path/parent%2Fchild`);
    expect(kid.body).toMatchObject({ id: child, title: 'Kid', markdown: 'new body\n' });
    const cr2 = await newCr(space);
    const d = await edit(space, cr2.id, [{ operation: 'delete_page', page: parent }]);
    expect(d.body.changes).toEqual([
      { object: 'deleted_page', page: parent },
      { object: 'deleted_page', page: child },
    ]);
  });

  it('stores files and serves them at a signed downloadURL without a token', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex');
    const r = await edit(space, cr.id, [
      { operation: 'insert_files', files: [{ name: 'dot.png', ref: 'dot', contentType: 'image/png', base64: png.toString('base64') }] },
      { operation: 'insert_page', title: 'Pic', document: { markdown: '![dot](./dot)' } },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const file = r.body.insertedFiles[0];
    expect(file).toMatchObject({ name: 'dot.png', size: png.length, dimensions: { width: 3, height: 2 } });
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const listed = await s.api('GET', `/v1/spaces/${space}/content/files`);
    expect(listed.body.items.map((f: any) => f.id)).toEqual([file.id]);
    const page = (await s.api('GET', `/v1/spaces/${space}/content/path/pic`)).body;
    expect(page.markdown).toBe(`![dot](/files/${file.id})\n`);
    const dl = await fetch(listed.body.items[0].downloadURL);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await dl.arrayBuffer())).toEqual(png);
    const forged = await fetch(listed.body.items[0].downloadURL.replace(/sig=[^&]+/, 'sig=AAAA'));
    expect(forged.status).toBe(404);
    const big = await edit(space, cr.id, [
      { operation: 'insert_files', files: [{ name: 'x', contentType: 'text/plain', base64: Buffer.alloc(1024 * 1024 + 1).toString('base64') }] },
    ]);
    expect(big.status).toBe(400);
  });

  it('searches titles and bodies, ranked, following edits at once', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    await edit(space, cr.id, [
      {
        operation: 'insert_page',
        title: 'Billing',
        document: { markdown: 'Invoices are monthly.\n\n## Refunds\n\nAsk support for a refund of your invoice.' },
      },
      { operation: 'insert_page', title: 'Other', document: { markdown: 'Nothing about money. An invoice appears once.' } },
    ]);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const r = await s.api('GET', `/v1/spaces/${space}/search?query=refund`);
    expect(r.body.items).toHaveLength(1);
    expect(r.body.items[0]).toMatchObject({ title: 'Billing', path: 'billing', sections: [{ title: 'Refunds', path: 'billing#refunds' }] });
    expect(r.body.items[0].sections[0].body).toContain('refund');
    const ranked = await s.api('GET', `/v1/spaces/${space}/search?query=billing`);
    expect(ranked.body.items[0].title).toBe('Billing');
    expect((await s.api('GET', `/v1/spaces/${space}/search?query=%20`)).status).toBe(400);
    const cr2 = await newCr(space);
    const page = (await s.api('GET', `/v1/spaces/${space}/content/path/other`)).body.id;
    await edit(space, cr2.id, [{ operation: 'update_page', page, document: { markdown: 'Now about refunds too.' } }]);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr2.id}/merge`);
    expect((await s.api('GET', `/v1/spaces/${space}/search?query=refund`)).body.items).toHaveLength(2);
    const orgWide = await s.api('GET', `/v1/orgs/${org}/search?query=refunds`);
    expect(orgWide.body.items.find((x: any) => x.id === space).pages).toHaveLength(2);
  });
});

describe('storage', () => {
  it('shares unchanged page nodes and bodies between revisions: one edit writes O(depth) rows', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const changes = Array.from({ length: 40 }, (_, i) => ({ operation: 'insert_page', title: `Page ${i}`, document: { markdown: `Body ${i}` } }));
    const r = await edit(space, cr.id, changes);
    const count = (table: Table<any, 'space'>) => s.ctx.store.read((tx) => tx.find(table, 'space', space).length);
    const [nodes, bodies] = [await count(PageNodes), await count(PageContents)];
    // 40 pages and the revision's root node (whose children are the root pages).
    expect([nodes, bodies]).toEqual([41, 40]);
    await edit(space, cr.id, [{ operation: 'update_page', page: r.body.changes[7].page.id, document: { markdown: 'Changed' } }]);
    // The changed page's node and body, and a new root node: nothing else.
    expect([await count(PageNodes), await count(PageContents)]).toEqual([43, 41]);
  });

  it('a duplicated space has the same content, independent of the original', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    await edit(space, cr.id, [{ operation: 'insert_page', title: 'Home', document: { markdown: 'Hello [me](./home.md)' } }]);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const copy = (await s.api('POST', `/v1/spaces/${space}/duplicate`)).body.id;
    const page = (await s.api('GET', `/v1/spaces/${copy}/content/path/home`)).body;
    expect(page.markdown).toBe(`Hello [me](/pages/${page.id})\n`);
    expect((await s.api('GET', `/v1/spaces/${copy}/search?query=hello`)).body.items).toHaveLength(1);
  });
});

describe('revert_page', () => {
  it('reverts a page to the base revision: changed body back, an added page removed, a deleted page restored', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const r = await edit(space, cr.id, [
      { operation: 'insert_page', title: 'Keep', document: { markdown: 'original' } },
      { operation: 'insert_page', title: 'Gone', document: { markdown: 'bye' } },
    ]);
    const [keep, gone] = r.body.changes.map((c: any) => c.page.id);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const cr2 = await newCr(space);
    const added = (
      await edit(space, cr2.id, [
        { operation: 'update_page', page: keep, title: 'Renamed', document: { markdown: 'changed' } },
        { operation: 'delete_page', page: gone },
        { operation: 'insert_page', title: 'New', document: { markdown: 'new' } },
      ])
    ).body.changes[2].page.id;
    const back = await edit(space, cr2.id, [
      { operation: 'revert_page', page: keep },
      { operation: 'revert_page', page: gone },
      { operation: 'revert_page', page: added },
    ]);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.changes).toEqual([
      { object: 'updated_page', page: expect.objectContaining({ id: keep }) },
      { object: 'created_page', page: expect.objectContaining({ id: gone }) },
      { object: 'deleted_page', page: added },
    ]);
    const pages = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr2.id}/content/pages`)).body.pages;
    expect(pages.map((p: any) => [p.id, p.title, p.markdown])).toEqual([
      [keep, 'Keep', 'original\n'],
      [gone, 'Gone', 'bye\n'],
    ]);
    const blocks = await edit(space, cr2.id, [{ operation: 'revert_page', page: keep, block: ['k1'] }]);
    expect(blocks.status).toBe(400);
    expect(blocks.body.error.message).toMatch(/^changes\[0\]\.block: /);
  });
});

describe('frontmatter', () => {
  it('sets fields from frontmatter and rejects values of the wrong type, naming the field', async () => {
    const space = await newSpace();
    const cr = await newCr(space);
    const ok = await edit(space, cr.id, [{ operation: 'insert_page', document: { markdown: '---\nemoji: "🚀"\nhidden: true\n---\n# Launch\n\nGo.' } }]);
    const id = ok.body.changes[0].page.id;
    const page = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/page/${id}`)).body;
    expect(page).toMatchObject({ title: 'Launch', emoji: '🚀', hidden: true, markdown: 'Go.\n' });
    const bad = await edit(space, cr.id, [{ operation: 'insert_page', document: { markdown: '---\nhidden: maybe\n---\n# X' } }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('changes[0].hidden: must be a boolean');
    const yaml = await edit(space, cr.id, [{ operation: 'insert_page', document: { markdown: '---\n: [\n---\n# X' } }]);
    expect(yaml.body.error.message).toMatch(/^changes\[0\]\.document\.markdown: frontmatter: not valid YAML/);
  });
});
