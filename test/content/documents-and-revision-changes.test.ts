import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { connectMcp, toolText } from '../helpers/mcp.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// getDocumentById (a page body by the documentId pages carry) and getRevisionSemanticChanges (what
// a revision brought in against its parent), over HTTP (checked against both specs), the CLI on
// both transports, and MCP.

let s: TestServer;
let org: string;
let space: string;
const sp = () => `/v1/spaces/${space}`;

async function edit(subject: string, changes: unknown[]) {
  const cr = (await s.api('POST', `${sp()}/change-requests`, { body: { subject } })).body;
  expect((await s.api('POST', `${sp()}/change-requests/${cr.id}/content?compat=false`, { body: { changes } })).status).toBe(200);
  expect((await s.api('POST', `${sp()}/change-requests/${cr.id}/merge`)).status).toBe(200);
  return cr;
}

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
}, 60_000);
afterAll(() => s?.stop());

describe('getDocumentById', () => {
  it('answers the body of a page by its documentId, also after the page changed, only in its space', async () => {
    await edit('First', [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello **world**.' } }]);
    const page = (await s.api('GET', `${sp()}/content/pages`)).body.pages[0];
    expect(page.documentId).toMatch(/^[0-9a-f]{64}$/);
    const doc = await s.api('GET', `${sp()}/documents/${page.documentId}`);
    expect(doc.status).toBe(200);
    expect(doc.body.object).toBe('document');
    expect(JSON.stringify(doc.body)).toContain('world');

    await edit('Second', [{ operation: 'update_page', page: page.id, document: { markdown: 'Changed.' } }]);
    const old = await s.api('GET', `${sp()}/documents/${page.documentId}`);
    expect(JSON.stringify(old.body)).toContain('world');

    // Another space of the same organization: the id means nothing there.
    const other = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Other' } })).body.id;
    expect((await s.api('GET', `/v1/spaces/${other}/documents/${page.documentId}`)).status).toBe(404);
    // Hostile or unknown ids, and callers who cannot read the space: 404.
    for (const id of ['nope', `${'0'.repeat(64)}`, encodeURIComponent(`${space}:${page.documentId}`), '..%2F..%2Fetc']) {
      expect((await s.api('GET', `${sp()}/documents/${id}`)).status, id).toBe(404);
    }
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `${sp()}/documents/${page.documentId}`, { token: outsider.token })).status).toBe(404);
  });
});

describe('getRevisionSemanticChanges', () => {
  it('lists what each revision brought in against its parent, and names the change request a merge came from', async () => {
    const cr = await edit('Third', [
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Guide.' } },
      { operation: 'insert_page', title: 'FAQ', document: { markdown: 'FAQ.' } },
    ]);
    const current = (await s.api('GET', `${sp()}/content`)).body;
    const r = await s.api('GET', `${sp()}/revisions/${current.id}/changes`);
    expect(r.status).toBe(200);
    expect(r.body.changes.map((c: any) => [c.type, c.page.title]).sort()).toEqual([
      ['page_created', 'FAQ'],
      ['page_created', 'Guide'],
    ]);
    expect(r.body.mergedFrom).toEqual(expect.objectContaining({ id: cr.id, number: cr.number }));
    const one = await s.api('GET', `${sp()}/revisions/${current.id}/changes?limit=1`);
    expect(one.body.changes).toHaveLength(1);
    expect(one.body.more).toBe(1);
    // The space's first revision: everything in it is new (here: nothing).
    const first = current.parents.length ? await firstRevision(current.id) : current.id;
    const f = await s.api('GET', `${sp()}/revisions/${first}/changes`);
    expect(f.status).toBe(200);
    expect(f.body.changes).toEqual([]);
    expect((await s.api('GET', `${sp()}/revisions/nope/changes`)).status).toBe(404);
    expect((await s.api('GET', `${sp()}/revisions/${current.id}/changes?limit=0`)).status).toBe(400);
  });
});

async function firstRevision(id: string): Promise<string> {
  for (;;) {
    const rev = (await s.api('GET', `${sp()}/revisions/${id}`)).body;
    if (!rev.parents.length) return rev.id;
    id = rev.parents[0];
  }
}

describe('the CLI and MCP', () => {
  it('documents get and revisions changes, in-process and over HTTP', async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_documents_cli' };
    const ok = async (...a: string[]) => {
      const r = await docs(a, env);
      expect(r.status, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const local = (await ok('spaces', 'create', '--title', 'CLI docs', '--json')).json.id;
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/README.md`, '# Welcome\n\nHi.\n');
    writeFileSync(`${dir}/SUMMARY.md`, '# Table of contents\n\n* [Welcome](README.md)\n');
    await ok('content', 'push', dir, '--space', local, '--merge');
    const page = (await ok('pages', 'list', local, '--json')).json.pages[0];
    expect(JSON.stringify((await ok('documents', 'get', local, page.documentId, '--json')).json)).toContain('Hi.');
    const rev = (await ok('revisions', 'get', local, (await ok('spaces', 'get', local, '--json')).json.revision ?? '', '--json')).json;
    expect((await ok('revisions', 'changes', local, rev.id)).stdout).toContain('page_created');

    const current = (await s.api('GET', `${sp()}/content`)).body.id;
    const overHttp = await docs(['revisions', 'changes', space, current, '--json', '--api-url', s.url, '--token', s.token]);
    expect(overHttp.status, overHttp.stderr).toBe(0);
    expect(overHttp.json.changes.length).toBeGreaterThan(0);
    const bad = await docs(['documents', 'get', space, 'nope', '--api-url', s.url, '--token', s.token]);
    expect(bad.status).toBe(3);
  }, 120_000);

  it('are MCP tools', async () => {
    const agent = await connectMcp(s.url, s.token);
    try {
      const page = (await s.api('GET', `${sp()}/content/pages`)).body.pages[0];
      const r = await agent.callTool({ name: 'getDocumentById', arguments: { spaceId: space, documentId: page.documentId } });
      expect(r.isError).toBeFalsy();
      expect(toolText(r)).toContain('document');
      const current = (await s.api('GET', `${sp()}/content`)).body.id;
      const c = await agent.callTool({ name: 'getRevisionSemanticChanges', arguments: { spaceId: space, revisionId: current } });
      expect(toolText(c)).toContain('page_created');
    } finally {
      await agent.close();
    }
  });
});
