import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
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

describe('the CLI, both transports, and MCP', () => {
  it('reusable list|get, revisions reusable|reusable-document and cr reusable answer alike in-process and over HTTP', async () => {
    const current = (await s.api('GET', `${sp()}/content`)).body;
    const block = current.reusableContents[0];
    const c = (await s.api('GET', `${sp()}/change-requests`)).body.items[0];
    const http = ['--api-url', s.url, '--token', s.token];
    const ok = async (...a: string[]) => {
      const r = await docs([...a, ...http]);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    expect((await ok('reusable', 'list', space, '--json')).json.items).toEqual(current.reusableContents);
    expect((await ok('reusable', 'list', space)).stdout).toContain(block.title);
    expect((await ok('reusable', 'list', space, '--revision', current.id, '--json')).json.items).toEqual(current.reusableContents);
    expect((await ok('reusable', 'list', space, '--cr', String(c.number), '--json')).json.items).toBeInstanceOf(Array);
    expect((await ok('reusable', 'get', space, block.id, '--json')).json).toEqual(block);
    expect((await ok('revisions', 'reusable', space, current.id, block.id, '--json')).json).toEqual(block);
    expect((await ok('revisions', 'reusable-document', space, current.id, block.id, '--jq', '.object')).stdout.trim()).toBe('document');
    const withBlock = await cr('CLI block');
    const made = await batch(withBlock.id, [
      { operation: 'insert_page', type: 'reusable-content', title: 'CLI block', document: { markdown: 'From the CLI test.' } },
    ]);
    const madeId = made.body.changes[0].page.id;
    expect((await ok('cr', 'reusable', space, String(withBlock.number), madeId, '--json')).json.title).toBe('CLI block');
    const missing = await docs(['reusable', 'get', space, 'nope', ...http]);
    expect(missing.status).toBe(3);

    // In-process, on a store of its own: a block written by a batch, listed and read.
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_reusable_cli' };
    const local = async (...a: string[]) => {
      const r = await docs(a, env);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const sid = (await local('spaces', 'create', '--title', 'CLI blocks', '--json')).json.id;
    expect((await local('reusable', 'list', sid, '--json')).json.items).toEqual([]);
    expect((await docs(['reusable', 'get', sid, 'nope'], env)).status).toBe(3);
  }, 120_000);

  it('the same calls give the same outcomes in-process and over HTTP', async () => {
    const scenario = async (t: Transport) => {
      const { out, step } = recorder();
      const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
      const sid = (await step(() => t.call('createSpace', { path: { organizationId: org }, body: { title: 'Parity blocks' } }))).id;
      const c = await step(() => t.call('createChangeRequest', { path: { spaceId: sid }, body: { subject: 'Blocks' } }));
      const changes = [
        { operation: 'insert_page', type: 'reusable-content', ref: 'b', title: 'Shared', document: { markdown: 'Shared text.' } },
        { operation: 'insert_page', title: 'Uses', document: { markdown: '{% include "b" %}' } },
      ];
      const r = await step(() =>
        t.call('updateChangeRequestContent', { path: { spaceId: sid, changeRequestId: c.id }, query: { compat: false }, body: { changes } }),
      );
      const id = r.changes[0].page.id;
      await step(() => t.call('getReusableContentInChangeRequestById', { path: { spaceId: sid, changeRequestId: c.id, reusableContentId: id } }));
      await step(() => t.call('getReusableContentById', { path: { spaceId: sid, reusableContentId: id } }));
      await step(() => t.call('mergeChangeRequest', { path: { spaceId: sid, changeRequestId: c.id } }));
      const rev = await step(() => t.call('getCurrentRevision', { path: { spaceId: sid } }));
      await step(() => t.call('getReusableContentById', { path: { spaceId: sid, reusableContentId: id } }));
      await step(() => t.call('getReusableContentInRevisionById', { path: { spaceId: sid, revisionId: rev.id, reusableContentId: id } }));
      await step(() => t.call('getReusableContentDocumentInRevisionById', { path: { spaceId: sid, revisionId: rev.id, reusableContentId: id } }));
      await step(() =>
        t.call('updateChangeRequestContent', {
          path: { spaceId: sid, changeRequestId: c.id },
          body: { changes: [{ operation: 'insert_page', type: 'reusable-content', document: { markdown: 'x' } }] },
        }),
      );
      return out;
    };
    const { local, remote } = await runBoth(s, scenario);
    expect(local).toEqual(remote);
    expect(JSON.stringify(local)).toContain('Shared text.');
  }, 120_000);

  it('the reads are MCP tools', async () => {
    const agent = await connectMcp(s.url, s.token);
    try {
      const block = (await s.api('GET', `${sp()}/content`)).body.reusableContents[0];
      const r = await agent.callTool({ name: 'getReusableContentById', arguments: { spaceId: space, reusableContentId: block.id } });
      expect(r.isError).toBeFalsy();
      expect(toolText(r)).toContain(block.title);
    } finally {
      await agent.close();
    }
  });
});
