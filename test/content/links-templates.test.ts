import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const newSpace = async () => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id as string;
async function authored(changes: object[]) {
  const space = await newSpace();
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: {} })).body;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, { body: { changes } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  return { space, r: r.body };
}

describe('links and backlinks', () => {
  it('lists every link with ok, broken and in-app status, stats and a status filter', async () => {
    const { space, r } = await authored([
      { operation: 'insert_files', files: [{ name: 'a.txt', ref: 'a', contentType: 'text/plain', base64: Buffer.from('hi').toString('base64') }] },
      {
        operation: 'insert_page',
        ref: 'one',
        title: 'One',
        document: { markdown: 'See [two](./two.md), [gone](/pages/nope), [file](./a), [web](https://example.com) and [again](./two.md).' },
      },
      { operation: 'insert_page', ref: 'two', title: 'Two', document: { markdown: `[app](${s.url}/o/${org}) and [missing](./missing.md)` } },
    ]);
    const [one, two] = r.changes.map((c: any) => c.page.id);
    const file = r.insertedFiles[0].id;
    const all = await s.api('GET', `/v1/spaces/${space}/links`);
    expect(all.body.stats).toEqual({ total: 6, broken: { total: 2 } });
    const summary = all.body.items.map((i: any) => [i.status, i.targetReference.kind, i.locationReferences.map((l: any) => l.page.id)]);
    expect(summary).toEqual([
      ['ok', 'page', [one]],
      ['broken', 'url', [one]],
      ['ok', 'file', [one]],
      ['ok', 'url', [one]],
      ['in-app', 'url', [two]],
      ['broken', 'url', [two]],
    ]);
    const broken = await s.api('GET', `/v1/spaces/${space}/links?status=broken`);
    expect(broken.body.items.map((i: any) => i.targetReference.url)).toEqual(['/pages/nope', './missing.md']);
    expect(broken.body.stats.broken.total).toBe(2);
    const pageLinks = await s.api('GET', `/v1/spaces/${space}/content/page/${two}/links`);
    expect(pageLinks.body.stats).toEqual({ total: 2, broken: { total: 1 } });
    const fileBack = await s.api('GET', `/v1/spaces/${space}/content/files/${file}/backlinks`);
    expect(fileBack.body.items.map((l: any) => l.page.id)).toEqual([one]);
    const pageBack = await s.api('GET', `/v1/spaces/${space}/content/page/${two}/backlinks`);
    expect(pageBack.body.items.map((l: any) => l.page.id)).toEqual([one]);
    expect((await s.api('GET', `/v1/spaces/${space}/content/page/nope/links`)).status).toBe(404);
  });
});

describe('templates', () => {
  it('applies a built-in template to the space, filling content refs; unknown ones are a 400', async () => {
    const space = await newSpace();
    const before = (await s.api('GET', `/v1/spaces/${space}`)).body.revision;
    const r = await s.api('POST', `/v1/spaces/${space}/content/template`, {
      body: { id: 'api-reference', params: { contentRefs: { openapi: { kind: 'url', url: 'https://example.com/openapi.json' } } } },
    });
    expect(r.status).toBe(201);
    expect(r.body).toBeUndefined();
    const pages = (await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    expect(pages.map((p: any) => [p.title, p.pages.map((c: any) => c.path)])).toEqual([
      ['API reference', ['api-reference/authentication', 'api-reference/errors', 'api-reference/pagination']],
    ]);
    expect(pages[0].markdown).toContain('(https://example.com/openapi.json)');
    expect((await s.api('GET', `/v1/spaces/${space}`)).body.revision).not.toBe(before);
    // Applied twice: the pages are added again beside the first ones, with free slugs.
    await s.api('POST', `/v1/spaces/${space}/content/template`, { body: { id: 'api-reference' } });
    expect((await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages.map((p: any) => p.path)).toEqual(['api-reference', 'api-reference-2']);
    const unknown = await s.api('POST', `/v1/spaces/${space}/content/template`, { body: { id: 'nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^id: no template nope/);
    const missing = await s.api('POST', `/v1/spaces/${space}/content/template`, { body: { id: 'faq' } });
    expect(missing.body.error.message).toMatch(/^params.contentRefs.support: required/);
  });

  it('applies into a change request when changeRequestId is given, leaving the space as it was', async () => {
    const space = await newSpace();
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: {} })).body;
    // API.md's extra field is checked by the handler: a non-string is a 400 that changes nothing.
    const bad = await s.api('POST', `/v1/spaces/${space}/content/template`, { body: { id: 'getting-started', changeRequestId: 7 } });
    expect([bad.status, bad.body.error.message]).toEqual([400, 'body.changeRequestId: must be a string']);
    const r = await s.api('POST', `/v1/spaces/${space}/content/template`, { body: { id: 'getting-started', changeRequestId: cr.id } });
    expect(r.status).toBe(201);
    expect((await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages).toEqual([]);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const pages = (await s.api('GET', `/v1/spaces/${space}/content/pages`)).body.pages;
    expect(pages.map((p: any) => p.title)).toEqual(['Overview', 'Quickstart', 'Installation']);
    // Template links between its pages resolve to page ids; the unused ref leaves no text.
    expect(pages[0].markdown).toBe(
      `What this project does, who it is for, and where to go next.\n\n- [Quickstart](/pages/${pages[1].id})\n- [Installation](/pages/${pages[2].id})\n`,
    );
    const links = (await s.api('GET', `/v1/spaces/${space}/links?status=broken`)).body;
    expect(links.stats.broken.total).toBe(0);
  });
});
