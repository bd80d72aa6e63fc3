import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitBookAPI as Client0146 } from 'gitbook-api-0146';
import { GitBookAPI as ClientLatest } from 'gitbook-api-latest';
import { ManualClock } from '../../src/kernel/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser } from '../helpers/people.js';
import { manifest, newOrg } from './helpers.js';

// Installation tokens and scoped callers (docs/manual/integrations.md#scoped-callers), through
// GitBook's official SDKs: `createInstallationClient()` against docs serve on a loopback port.

const clock = new ManualClock(Date.now());
let s: TestServer;
let org: string;
let inst: string;
let inside: string; // a space the installation is on
let outside: string; // a space of the same organization it is not on
let foreign: string; // a space of another organization

beforeAll(async () => {
  s = await startServer({ clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  expect((await s.api('POST', '/v1/integrations/reader', { body: manifest(org, { scopes: ['space:content:read', 'space:metadata:read'] }) })).status).toBe(200);
  inst = (await s.api('POST', '/v1/integrations/reader/installations', { body: { organization: org } })).body.id;
  inside = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Inside' } })).body.id;
  outside = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Outside' } })).body.id;
  const other = await newOrg(s);
  foreign = (await s.api('POST', `/v1/orgs/${other}/spaces`, { body: { title: 'Foreign' } })).body.id;
  expect((await s.api('PATCH', `/v1/integrations/reader/installations/${inst}`, { body: { space_selection: 'selected' } })).status).toBe(200);
  expect((await s.api('POST', `/v1/integrations/reader/installations/${inst}/spaces`, { body: { space: inside } })).status).toBe(201);
});
afterAll(() => s.stop());

const mint = async () => {
  const r = await s.api('POST', `/v1/integrations/reader/installations/${inst}/tokens`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token as string;
};

describe.each([
  ['0.146.0', Client0146],
  ['0.202.0', ClientLatest],
])('createInstallationClient() of @gitbook/api %s', (_, GitBookAPI: any) => {
  it('acts within the installation: its spaces and its own installation, with the integration scopes', async () => {
    const api = new GitBookAPI({ endpoint: s.url, authToken: s.token });
    const client = await api.createInstallationClient('reader', inst);
    expect((await client.spaces.getSpaceById(inside)).data.id).toBe(inside);
    expect((await client.spaces.listPages(inside)).data.pages).toEqual([]);
    expect((await client.integrations.getIntegrationInstallationById('reader', inst)).data.id).toBe(inst);
    const spaces = (await client.integrations.listIntegrationInstallationSpaces('reader', inst)).data.items;
    expect(spaces.map((x: any) => x.space)).toEqual([inside]);
  });

  it('is refused (403) beyond its scope: another space, another organization, a scope it lacks, an operation no scope opens', async () => {
    const api = new GitBookAPI({ endpoint: s.url, authToken: s.token });
    const client = await api.createInstallationClient('reader', inst);
    await expect(client.spaces.getSpaceById(outside)).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining(`space ${outside} is outside the scope`),
    });
    await expect(client.spaces.getSpaceById(foreign)).rejects.toMatchObject({ code: 403 });
    await expect(client.spaces.updateSpaceById(inside, { title: 'Renamed' })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('space:metadata:write'),
    });
    await expect(client.orgs.listSpacesInOrganizationById(org)).rejects.toMatchObject({ code: 403 });
    await expect(client.user.getAuthenticatedUser()).rejects.toMatchObject({ code: 403 });
    await expect(client.integrations.createIntegrationInstallationToken('reader', inst)).rejects.toMatchObject({ code: 403 });
    expect((await s.api('GET', `/v1/spaces/${inside}`)).body.title).toBe('Inside'); // nothing changed
  });
});

describe('scoped tokens over HTTP', () => {
  it('opens no /_docs route (it could mint a full token) and does not sign in to the app', async () => {
    const token = await mint();
    expect(token).toMatch(/^gb_inst_/);
    const r = await s.docs('POST', '/_docs/tokens', { token, body: { label: 'escape' } });
    expect(r.status).toBe(403);
    const login = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
      body: new URLSearchParams({ token }).toString(),
      redirect: 'manual',
    });
    expect(login.status).toBe(401);
  });

  it('widens and narrows with the installation: a space installed on later is in scope, an uninstalled one is not', async () => {
    const token = await mint();
    expect((await s.api('GET', `/v1/spaces/${outside}`, { token })).status).toBe(403);
    expect((await s.api('POST', `/v1/integrations/reader/installations/${inst}/spaces`, { body: { space: outside } })).status).toBe(201);
    expect((await s.api('GET', `/v1/spaces/${outside}`, { token })).status).toBe(200);
    expect((await s.api('DELETE', `/v1/integrations/reader/installations/${inst}/spaces/${outside}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/spaces/${outside}`, { token })).status).toBe(403);
  });

  it('is minted only by the integration’s developers (admins of its owner): 403 for a member, 404 for an outsider', async () => {
    const member = await addUser(s.ctx, org, 'edit');
    const r = await s.api('POST', `/v1/integrations/reader/installations/${inst}/tokens`, { token: member.token });
    expect(r.status).toBe(403);
    const stranger = await addUser(s.ctx);
    expect((await s.api('POST', `/v1/integrations/reader/installations/${inst}/tokens`, { token: stranger.token })).status).toBe(404);
    expect((await s.api('POST', `/v1/integrations/reader/installations/nope/tokens`)).status).toBe(404);
  });

  it('expires after an hour (401)', async () => {
    const token = await mint();
    expect((await s.api('GET', `/v1/spaces/${inside}`, { token })).status).toBe(200);
    clock.advance(60 * 60 * 1000 + 1);
    const r = await s.api('GET', `/v1/spaces/${inside}`, { token });
    expect(r.status).toBe(401);
    expect(r.body.error.message).toMatch(/expired/);
  });

  it('is revoked by uninstalling (401), and a second mint after that is a 404', async () => {
    const token = await mint();
    expect((await s.api('GET', `/v1/spaces/${inside}`, { token })).status).toBe(200);
    expect((await s.api('DELETE', `/v1/integrations/reader/installations/${inst}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/spaces/${inside}`, { token })).status).toBe(401);
    expect((await s.api('POST', `/v1/integrations/reader/installations/${inst}/tokens`)).status).toBe(404);
  });
});
