import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { get } from '../published/fixture.js';

// Reusable content (docs/manual/reusable-content.md): written through change requests
// (insert_page type "reusable-content", update/delete/revert_page by its id), included in pages by
// `{% include %}`, read by the four reusable-content operations (every answer checked against
// both specs by s.api), merged three-way, and expanded in the published site.

let s: TestServer;
let org: string;
let space: string;
const sp = () => `/v1/spaces/${space}`;

async function cr(subject: string) {
  return (await s.api('POST', `${sp()}/change-requests`, { body: { subject } })).body;
}
const batch = (id: string, changes: unknown[]) => s.api('POST', `${sp()}/change-requests/${id}/content?compat=false`, { body: { changes } });

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
}, 60_000);
afterAll(() => s?.stop());

describe('reusable content', () => {
  let block: string;
  let first: any;

  it('is created in a change request, included by pages by ref or by its Git Sync file, and read in every variant', async () => {
    first = await cr('Blocks');
    const r = await batch(first.id, [
      { operation: 'insert_page', type: 'reusable-content', ref: 'warn', title: 'Support warning', document: { markdown: 'Ask **support** first.\n' } },
      { operation: 'insert_page', title: 'Install', document: { markdown: 'Intro.\n\n{% include "warn" %}\n\nAfter.\n' } },
      { operation: 'insert_page', title: 'Upgrade', document: { markdown: '{% include "../.gitbook/includes/support-warning.md" %}\n' } },
    ]);
    expect(r.status).toBe(200);
    const created = r.body.changes.find((c: any) => c.ref === 'warn');
    block = typeof created.page === 'string' ? created.page : created.page.id;
    expect(block).toBeTruthy();

    // In the change request: its revision lists it; the pages store the canonical tag.
    const inCr = await s.api('GET', `${sp()}/change-requests/${first.id}/content/reusable-contents/${block}`);
    expect(inCr.status).toBe(200);
    expect(inCr.body).toEqual({ id: block, title: 'Support warning', document: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const pages = (await s.api('GET', `${sp()}/change-requests/${first.id}/content/pages`)).body.pages;
    for (const p of pages) {
      const got = await s.api('GET', `${sp()}/change-requests/${first.id}/content/page/${p.id}?format=markdown`);
      expect(got.body.markdown).toContain(`{% include "/reusable/${block}" %}`);
      const doc = await s.api('GET', `${sp()}/change-requests/${first.id}/content/page/${p.id}?format=document`);
      expect(doc.body.document.nodes).toContainEqual(
        expect.objectContaining({ type: 'reusable-content', data: { ref: { kind: 'reusable-content', reusableContent: block } } }),
      );
    }
    // Not in the space until merged.
    expect((await s.api('GET', `${sp()}/content/reusable-contents/${block}`)).status).toBe(404);
    expect((await s.api('POST', `${sp()}/change-requests/${first.id}/merge`)).status).toBe(200);

    const current = (await s.api('GET', `${sp()}/content`)).body;
    expect(current.reusableContents).toEqual([inCr.body]);
    expect((await s.api('GET', `${sp()}/content/reusable-contents/${block}`)).body).toEqual(inCr.body);
    expect((await s.api('GET', `${sp()}/revisions/${current.id}/reusable-contents/${block}`)).body).toEqual(inCr.body);
    const doc = await s.api('GET', `${sp()}/revisions/${current.id}/reusable-contents/${block}/document`);
    expect(doc.status).toBe(200);
    expect(JSON.stringify(doc.body)).toContain('support');
    // Its document is a body of the space like a page's.
    expect((await s.api('GET', `${sp()}/documents/${inCr.body.document}`)).status).toBe(200);
  }, 120_000);

  it('is edited and renamed by update_page, and the pages keep including it', async () => {
    const c = await cr('Edit block');
    expect(
      (await batch(c.id, [{ operation: 'update_page', page: block, title: 'Support note', document: { markdown: 'Mail **help@example.test**.\n' } }])).status,
    ).toBe(200);
    expect((await s.api('POST', `${sp()}/change-requests/${c.id}/merge`)).status).toBe(200);
    const now = (await s.api('GET', `${sp()}/content/reusable-contents/${block}`)).body;
    expect(now.title).toBe('Support note');
    const rev = (await s.api('GET', `${sp()}/content`)).body.id;
    expect(JSON.stringify((await s.api('GET', `${sp()}/revisions/${rev}/reusable-contents/${block}/document`)).body)).toContain('help@example.test');
  });

  it('is rendered inside each page that includes it on the published site, and in its markdown', async () => {
    const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Blocks site', spaces: [space] } })).body;
    const published = (await s.api('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).body.urls.published;
    for (const slug of ['install', 'upgrade']) {
      const html = (await get(s, `${published}/${slug}`)).text;
      expect(html).toContain('help@example.test');
      expect(html).not.toContain('{% include');
      const md = (await get(s, `${published}/${slug}.md`)).text;
      expect(md).toContain('help@example.test');
      expect(md).not.toContain('{% include');
    }
  });

  it('merges edits of the same block from two change requests, and names the block on a conflict', async () => {
    const a = await cr('A');
    const b = await cr('B');
    expect((await batch(a.id, [{ operation: 'update_page', page: block, document: { markdown: 'Version A.\n' } }])).status).toBe(200);
    expect((await batch(b.id, [{ operation: 'update_page', page: block, document: { markdown: 'Version B.\n' } }])).status).toBe(200);
    expect((await s.api('POST', `${sp()}/change-requests/${a.id}/merge`)).status).toBe(200);
    const before = (await s.api('GET', `${sp()}/content`)).body.id;
    const m = await s.api('POST', `${sp()}/change-requests/${b.id}/merge`);
    expect(m.body.result).toBe('conflicts');
    expect(JSON.stringify(m.body)).toContain(block);
    expect((await s.api('GET', `${sp()}/content`)).body.id).toBe(before);
    // A block created in a change request while the space moved on is merged in.
    const c = await cr('C');
    const d = await cr('D');
    await batch(c.id, [{ operation: 'insert_page', type: 'reusable-content', title: 'Footer', document: { markdown: 'Footer.\n' } }]);
    await batch(d.id, [{ operation: 'insert_page', title: 'Other', document: { markdown: 'Other.\n' } }]);
    expect((await s.api('POST', `${sp()}/change-requests/${d.id}/merge`)).body.result).toBe('merge');
    expect((await s.api('POST', `${sp()}/change-requests/${c.id}/merge`)).body.result).toBe('merge');
    expect((await s.api('GET', `${sp()}/content`)).body.reusableContents.map((x: any) => x.title).sort()).toEqual(['Footer', 'Support note']);
  });

  it('is deleted by delete_page and restored by revert_page', async () => {
    const c = await cr('Delete');
    expect((await batch(c.id, [{ operation: 'delete_page', page: block }])).status).toBe(200);
    expect((await s.api('GET', `${sp()}/change-requests/${c.id}/content/reusable-contents/${block}`)).status).toBe(404);
    expect((await batch(c.id, [{ operation: 'revert_page', page: block }])).status).toBe(200);
    expect((await s.api('GET', `${sp()}/change-requests/${c.id}/content/reusable-contents/${block}`)).status).toBe(200);
  });

  it('refuses bad input with a 400 naming the change, and writes nothing', async () => {
    const c = await cr('Bad');
    const rev = (await s.api('GET', `${sp()}/change-requests/${c.id}`)).body.revision;
    const cases: [unknown, RegExp][] = [
      [{ operation: 'insert_page', type: 'reusable-content', document: { markdown: 'No title.' } }, /changes\[0\]\.title/],
      [{ operation: 'insert_page', type: 'reusable-content', title: 'X', into: 'abc', document: { markdown: 'x' } }, /changes\[0\]\.into/],
      [
        { operation: 'insert_page', type: 'reusable-content', title: 'Nested', document: { markdown: `{% include "/reusable/${block}" %}\n` } },
        /cannot include/,
      ],
      [
        { operation: 'insert_page', title: 'Dangling', document: { markdown: '{% include "../.gitbook/includes/nothing.md" %}\n' } },
        /names no reusable content/,
      ],
      [{ operation: 'insert_page', title: 'Hostile', document: { markdown: '{% include "/reusable/../../etc/passwd" %}\n' } }, /names no reusable content/],
      [{ operation: 'update_page', page: block, slug: 'moved', document: { markdown: 'x' } }, /changes\[0\]\.slug/],
    ];
    for (const [change, message] of cases) {
      const r = await batch(c.id, [change]);
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect((await s.api('GET', `${sp()}/change-requests/${c.id}`)).body.revision).toBe(rev);
    // A tag in a code block or inside a sentence is text, not an inclusion.
    const ok = await batch(c.id, [
      { operation: 'insert_page', title: 'Code', document: { markdown: '```\n{% include "nothing" %}\n```\n\nSee {% include "x" %} here.\n' } },
    ]);
    expect(ok.status).toBe(200);
  });

  it('is read only by those who may read the space; unknown ids are 404', async () => {
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `${sp()}/content/reusable-contents/${block}`, { token: outsider.token })).status).toBe(404);
    const rev = (await s.api('GET', `${sp()}/content`)).body.id;
    for (const path of [
      `${sp()}/content/reusable-contents/nope`,
      `${sp()}/revisions/${rev}/reusable-contents/nope`,
      `${sp()}/revisions/nope/reusable-contents/${block}`,
      `${sp()}/revisions/${rev}/reusable-contents/nope/document`,
      `${sp()}/change-requests/nope/content/reusable-contents/${block}`,
    ]) {
      expect((await s.api('GET', path)).status, path).toBe(404);
    }
    const other = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Other' } })).body.id;
    expect((await s.api('GET', `/v1/spaces/${other}/revisions/${rev}/reusable-contents/${block}`)).status).toBe(404);
  });
});
