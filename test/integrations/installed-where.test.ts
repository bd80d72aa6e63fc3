import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser } from '../helpers/people.js';
import { manifest } from './helpers.js';

// What is installed where (docs/manual/integrations.md#what-is-installed-where).

let s: TestServer;
let org: string;
let space: string;
let site: string;
let inst: string;

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  await s.api('POST', '/v1/integrations/alpha', { body: manifest(org, { title: 'Alpha', target: 'space' }) });
  await s.api('POST', '/v1/integrations/beta', {
    body: manifest(org, { title: 'Beta', target: 'site', configurations: { account: { properties: { k: { type: 'string' } }, required: ['k'] } } }),
  });
  await s.api('POST', '/v1/integrations/gamma', { body: manifest(org, { title: 'Gamma' }) }); // not installed
  inst = (await s.api('POST', '/v1/integrations/alpha/installations', { body: { organization: org } })).body.id;
  await s.api('POST', '/v1/integrations/beta/installations', { body: { organization: org } });
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'S' } })).body.id;
  site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Site' } })).body.id;
});
afterAll(() => s.stop());

const names = (b: any) => b.items.map((i: any) => i.name);

describe('organization, space and site lists', () => {
  it('lists the integrations installed in an organization (search filters), to its members; 404 to others', async () => {
    expect(names((await s.api('GET', `/v1/orgs/${org}/integrations`)).body)).toEqual(['alpha', 'beta']);
    expect(names((await s.api('GET', `/v1/orgs/${org}/integrations?search=bet`)).body)).toEqual(['beta']);
    const reader = await addUser(s.ctx, org, 'read');
    expect(names((await s.api('GET', `/v1/orgs/${org}/integrations`, { token: reader.token })).body)).toEqual(['alpha', 'beta']);
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/orgs/${org}/integrations`, { token: outsider.token })).status).toBe(404);
  });

  it('lists installations with their integrations to admins (403 naming the role to other members)', async () => {
    const r = await s.api('GET', `/v1/orgs/${org}/installations`);
    expect(r.body.items.map((x: any) => [x.integration.name, x.installation.status])).toEqual([
      ['alpha', 'active'],
      ['beta', 'pending'],
    ]);
    const reader = await addUser(s.ctx, org, 'read');
    const refused = await s.api('GET', `/v1/orgs/${org}/installations`, { token: reader.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/admin/);
  });

  it('tells the status of one integration in an organization; 404 when it is not installed there', async () => {
    expect((await s.api('GET', `/v1/orgs/${org}/integrations/beta/installation_status`)).body).toEqual({ status: 'pending' });
    expect((await s.api('GET', `/v1/orgs/${org}/integrations/alpha/installation_status`)).body).toEqual({ status: 'active' });
    const none = await s.api('GET', `/v1/orgs/${org}/integrations/gamma/installation_status`);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toContain('not installed');
  });

  it('lists the integrations on a space and on a site, by target and selection', async () => {
    expect(names((await s.api('GET', `/v1/spaces/${space}/integrations`)).body)).toEqual(['alpha']);
    expect(names((await s.api('GET', `/v1/orgs/${org}/sites/${site}/integrations`)).body)).toEqual(['beta']);
    await s.api('DELETE', `/v1/integrations/alpha/installations/${inst}/spaces/${space}`);
    expect(names((await s.api('GET', `/v1/spaces/${space}/integrations`)).body)).toEqual([]);
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/spaces/${space}/integrations`, { token: outsider.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/integrations`, { token: outsider.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/nope/integrations`)).status).toBe(404);
  });
});
