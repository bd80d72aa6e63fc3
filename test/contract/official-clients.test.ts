import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI as Client0146 } from 'gitbook-api-0146';
import { GitBookAPI as ClientLatest } from 'gitbook-api-latest';
import { startServer, type TestServer } from '../helpers/server.js';

// GitBook's official clients (@gitbook/api 0.146.0 and 0.202.0) pointed at docs serve. They send a
// nested page path with its slashes unencoded (`/content/path/guide/setup`); operations docs serve
// does not implement answer 501 naming the operation, which the client reports as such.

let s: TestServer;
let space: string;
let cr: string;
let revision: string;
let child: string;
beforeAll(async () => {
  s = await startServer();
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
  cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Pages' } })).body.id;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: {
      changes: [
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
        { operation: 'insert_page', ref: 'setup', title: 'Setup', into: 'guide', document: { markdown: 'Run it.' } },
      ],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  child = r.body.changes[1].page.id;
  revision = (await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).body.revision;
});
afterAll(() => s.stop());

describe.each([
  ['0.146.0', Client0146],
  ['0.202.0', ClientLatest],
])('@gitbook/api %s', (_, GitBookAPI) => {
  // The packages' types do not resolve under this project's module settings: the calls are the
  // clients' own (a wrong name would fail at run time).
  const client = (): any => new GitBookAPI({ endpoint: s.url, authToken: s.token });

  it("reads the API information (GET /v1/): this package's version and its build date", async () => {
    const { data } = await client().getApiInformation();
    expect(data).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), build: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('reads a nested page by its path, in the space, a revision and a change request', async () => {
    const api = client();
    expect((await api.spaces.getPageByPath(space, 'guide/setup')).data).toMatchObject({ id: child, title: 'Setup' });
    expect((await api.spaces.getPageInRevisionByPath(space, revision, 'guide/setup')).data).toMatchObject({ id: child });
    expect((await api.spaces.getPageInChangeRequestByPath(space, cr, 'guide/setup')).data).toMatchObject({ id: child });
    // Encoded as well, and a path that leads nowhere is a 404 with the error body.
    expect((await api.spaces.getPageByPath(space, encodeURIComponent('guide/setup'))).data).toMatchObject({ id: child });
    await expect(api.spaces.getPageByPath(space, 'guide/nope')).rejects.toMatchObject({ code: 404 });
  });
});

// Every operation of both specs is served (or being built), so there is no unserved operation
// left to call through the client here: the 501 naming an operation a router does not serve is
// tested on a router registering a few operations (test/contract/contract.test.ts).
it('a path in neither spec is 404 over HTTP', async () => {
  expect((await s.api('GET', '/v1/user/nope')).status).toBe(404);
});

it('the 0.202.0 client reads the fields its types promise, and writes the customization it read back', async () => {
  const api: any = new ClientLatest({ endpoint: s.url, authToken: s.token });
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Client site', spaces: [space] } })).body.id;
  expect((await api.orgs.getSiteById(org, site)).data.permissions.admin).toBe(true);
  expect((await api.spaces.getPageByPath(space, 'guide')).data.layout.tags).toBe(false);
  const custom = (await api.orgs.getSiteCustomizationById(org, site)).data;
  custom.styling.codeTheme.default = { light: 'vitesse-light', dark: 'vitesse-dark' };
  custom.pageActions.items = ['mcp'];
  const saved = (await api.orgs.updateSiteCustomizationById(org, site, custom)).data;
  expect(saved.styling.codeTheme.default).toEqual({ light: 'vitesse-light', dark: 'vitesse-dark' });
  expect(saved.pageActions).toMatchObject({ items: ['mcp'], markdown: false, externalAI: false, mcp: true });
  const hits = (await api.spaces.searchSpaceContent(space, { query: 'guide' })).data.items;
  expect(hits[0]).toMatchObject({ rank: 1, score: expect.any(Number), description: '' });
});
