import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser } from '../helpers/people.js';
import { manifest, newOrg } from './helpers.js';

// Installations on single spaces and sites (docs/manual/integrations.md#installations-on-spaces-and-sites).

let s: TestServer;
let org: string;
let inst: string;
let a: string;
let b: string;
let site: string;
const base = () => `/v1/integrations/cms/installations/${inst}`;

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  await s.api('POST', '/v1/integrations/cms', { body: manifest(org) });
  inst = (await s.api('POST', '/v1/integrations/cms/installations', { body: { organization: org } })).body.id;
  a = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'A' } })).body.id;
  b = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'B' } })).body.id;
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Site' } })).body.id;
});
afterAll(() => s.stop());

describe('spaces', () => {
  it('selection all: on every space; uninstalling from one keeps the others (selection becomes selected)', async () => {
    const all = await s.api('GET', `${base()}/spaces`);
    expect(all.body.items.map((x: any) => x.space)).toEqual([a, b]);
    expect((await s.api('DELETE', `${base()}/spaces/${a}`)).status).toBe(205);
    expect((await s.api('DELETE', `${base()}/spaces/${a}`)).status).toBe(204);
    expect((await s.api('GET', `${base()}/spaces`)).body.items.map((x: any) => x.space)).toEqual([b]);
    expect((await s.api('GET', base())).body.space_selection).toBe('selected');
    expect((await s.api('GET', `${base()}/spaces/${a}`)).status).toBe(404);
  });

  it('installs on one space (201, Location, extended object), once (409)', async () => {
    const r = await s.api('POST', `${base()}/spaces?extended=true`, { body: { space: a } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBe(`${s.url}${base()}/spaces/${a}`);
    expect(r.body).toMatchObject({ integration: 'cms', installation: inst, status: 'active', configuration: {}, space: { id: a, title: 'A' } });
    const again = await s.api('POST', `${base()}/spaces`, { body: { space: a } });
    expect(again.status).toBe(409);
  });

  it('updates its own externalIds and configuration; an empty patch is a 400 changing nothing', async () => {
    const r = await s.api('PATCH', `${base()}/spaces/${a}`, { body: { externalIds: ['repo-1'], configuration: { branch: 'main' } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ space: a, externalIds: ['repo-1'], configuration: { branch: 'main' } });
    expect((await s.api('GET', `${base()}/spaces/${a}`)).body.configuration).toEqual({ branch: 'main' });
    const empty = await s.api('PATCH', `${base()}/spaces/${a}`, { body: {} });
    expect(empty.status).toBe(400);
    const dup = await s.api('PATCH', `${base()}/spaces/${a}`, { body: { externalIds: ['x', 'x'] } });
    expect(dup.status).toBe(400);
    expect((await s.api('GET', `${base()}/spaces/${a}`)).body.externalIds).toEqual(['repo-1']);
  });

  it('a space of another organization, or none, is a 404 and installs nothing', async () => {
    const other = await newOrg(s);
    const foreign = (await s.api('POST', `/v1/orgs/${other}/spaces`, { body: { title: 'F' } })).body.id;
    for (const id of [foreign, 'nope']) {
      const r = await s.api('POST', `${base()}/spaces`, { body: { space: id } });
      expect(r.status).toBe(404);
      expect(r.body.error.message).toContain(`space ${id} not found in organization ${org}`);
      expect((await s.api('GET', `${base()}/spaces/${id}`)).status).toBe(404);
    }
  });

  it('only the organization’s admins install: 403 for an editor, 404 for an outsider, nothing installed', async () => {
    await s.api('DELETE', `${base()}/spaces/${b}`);
    const editor = await addUser(s.ctx, org, 'edit');
    expect((await s.api('POST', `${base()}/spaces`, { token: editor.token, body: { space: b } })).status).toBe(403);
    const outsider = await addUser(s.ctx);
    expect((await s.api('POST', `${base()}/spaces`, { token: outsider.token, body: { space: b } })).status).toBe(404);
    expect((await s.api('GET', `${base()}/spaces/${b}`)).status).toBe(404);
  });

  it('an integration that targets sites only cannot be installed on a space (400)', async () => {
    await s.api('POST', '/v1/integrations/siteonly', { body: manifest(org, { target: 'site' }) });
    const i = (await s.api('POST', '/v1/integrations/siteonly/installations', { body: { organization: org } })).body.id;
    const r = await s.api('POST', `/v1/integrations/siteonly/installations/${i}/spaces`, { body: { space: a } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/targets site/);
  });
});

describe('sites', () => {
  it('lists, gets, updates, uninstalls and installs again on a site', async () => {
    expect((await s.api('GET', `${base()}/sites`)).body.items.map((x: any) => x.site)).toEqual([site]);
    const ext = await s.api('GET', `${base()}/sites/${site}?extended=true`);
    expect(ext.body.site.id).toBe(site);
    expect((await s.api('PATCH', `${base()}/sites/${site}`, { body: { externalIds: ['w1'] } })).body.externalIds).toEqual(['w1']);
    expect((await s.api('DELETE', `${base()}/sites/${site}`)).status).toBe(205);
    expect((await s.api('GET', `${base()}/sites`)).body.items).toEqual([]);
    const r = await s.api('POST', `${base()}/sites`, { body: { siteId: site } });
    expect(r.status).toBe(201);
    expect(r.body.site).toBe(site);
    expect((await s.api('POST', `${base()}/sites`, { body: { siteId: 'nope' } })).status).toBe(404);
  });

  it('emits space and site installation events', async () => {
    const types = (await s.api('GET', '/v1/integrations/cms/events')).body.items.map((e: any) => e.payload.type);
    for (const t of ['space_installation_setup', 'space_installation_deleted', 'site_installation_setup', 'site_installation_deleted'])
      expect(types).toContain(t);
  });
});
