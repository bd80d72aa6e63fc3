import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

const full = { label: 'Okta', entityID: 'http://www.okta.com/exk1', certificate: 'MIIDpDCCAoygAwIBAgIGAY', ssoURL: 'https://acme.okta.com/app/sso/saml' };

describe('SAML providers', () => {
  it('creates (201 + Location), lists, gets, patches, deletes; service URLs come from the base URL', async () => {
    const org = await newOrg(s);
    const team = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'SSO people' } })).body;
    const created = await s.api('POST', `/v1/orgs/${org}/saml`, { body: { ...full, defaultTeam: team.id, defaultRole: 'edit' } });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.get('location')).toBe(`${s.url}/v1/orgs/${org}/saml/${id}`);
    expect(created.body).toMatchObject({
      object: 'saml-provider',
      ...full,
      defaultRole: 'edit',
      defaultTeam: { id: team.id, title: 'SSO people' },
      status: 'active',
      service: { acsURL: `${s.url}/sso/saml/${id}/acs`, startURL: `${s.url}/sso/saml/${id}/start`, entityID: `${s.url}/sso/saml/${id}` },
      urls: { location: `${s.url}/v1/orgs/${org}/saml/${id}` },
    });
    expect((await s.api('GET', `/v1/orgs/${org}/saml`)).body).toEqual({ items: [created.body], count: 1 });
    expect((await s.api('GET', `/v1/orgs/${org}/saml/${id}`)).body).toEqual(created.body);
    const patched = await s.api('PATCH', `/v1/orgs/${org}/saml/${id}`, { body: { label: 'Okta EU', defaultRole: null, defaultTeam: '' } });
    expect(patched.body).toMatchObject({ label: 'Okta EU', defaultRole: null, entityID: full.entityID });
    expect(patched.body.defaultTeam).toBeUndefined();
    expect((await s.api('DELETE', `/v1/orgs/${org}/saml/${id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/saml/${id}`)).status).toBe(204);
    expect((await s.api('GET', `/v1/orgs/${org}/saml/${id}`)).status).toBe(404);
  });

  it('a provider missing its IdP side is pending, takes the default role of the org, and is not offered at /sso', async () => {
    const org = await newOrg(s);
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { defaultRole: 'comment' } });
    const pending = (await s.api('POST', `/v1/orgs/${org}/saml`, { body: { label: 'Later' } })).body;
    expect(pending).toMatchObject({ status: 'pending', defaultRole: 'comment', entityID: '', certificate: '', ssoURL: 'about:blank' });
    const active = (await s.api('POST', `/v1/orgs/${org}/saml`, { body: full })).body;
    const reader = await addPerson(s, org, 'read');
    const sso = await s.api('GET', `/v1/orgs/${org}/sso`, { token: reader.token });
    expect(sso.body).toEqual({ items: [{ id: active.id, label: 'Okta', startURL: active.service.startURL }] });
    // Completing the pending one makes it active and offered.
    const done = await s.api('PATCH', `/v1/orgs/${org}/saml/${pending.id}`, { body: { entityID: 'e', certificate: 'c', ssoURL: 'https://idp.test/sso' } });
    expect(done.body.status).toBe('active');
    expect((await s.api('GET', `/v1/orgs/${org}/sso`)).body.items).toHaveLength(2);
  });

  it('enforces the limits (400 naming the field) and that defaultTeam is a team of the org', async () => {
    const org = await newOrg(s);
    const otherOrg = await newOrg(s);
    const foreignTeam = (await s.api('PUT', `/v1/orgs/${otherOrg}/teams`, { body: { title: 'Elsewhere' } })).body.id;
    const cases: [object, string][] = [
      [{}, 'body.label: is required'],
      [{ label: '' }, 'body.label: must NOT have fewer than 1 characters'],
      [{ label: 'x'.repeat(31) }, 'body.label: must NOT have more than 30 characters'],
      [{ label: '  ' }, 'label: must not be blank'],
      [{ label: 'L', entityID: 'e'.repeat(1025) }, 'body.entityID: must NOT have more than 1024 characters'],
      [{ label: 'L', certificate: 'c'.repeat(10001) }, 'body.certificate: must NOT have more than 10000 characters'],
      [{ label: 'L', ssoURL: 'https://idp.test/' + 'a'.repeat(2048) }, 'body.ssoURL: must NOT have more than 2048 characters'],
      [{ label: 'L', ssoURL: 'not a url' }, 'body.ssoURL: must match format "uri"'],
      [{ label: 'L', ssoURL: 'ftp://idp.test/sso' }, 'ssoURL: must be an http or https URL'],
      [{ label: 'L', defaultTeam: 'nope' }, 'defaultTeam: no team nope in this organization'],
      [{ label: 'L', defaultTeam: foreignTeam }, `defaultTeam: no team ${foreignTeam} in this organization`],
      [{ label: 'L', defaultRole: 'owner' }, 'body.defaultRole: must be one of'],
    ];
    for (const [body, message] of cases) {
      const r = await s.api('POST', `/v1/orgs/${org}/saml`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await s.api('GET', `/v1/orgs/${org}/saml`)).body.count).toBe(0);
    const id = (await s.api('POST', `/v1/orgs/${org}/saml`, { body: full })).body.id;
    expect((await s.api('PATCH', `/v1/orgs/${org}/saml/${id}`, { body: { label: 'x'.repeat(31) } })).status).toBe(400);
    expect((await s.api('PATCH', `/v1/orgs/${org}/saml/${id}`, { body: {} })).body.error.message).toBe('body: nothing to update');
    expect((await s.api('PATCH', `/v1/orgs/${org}/saml/nope`, { body: { label: 'X' } })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/saml/${id}`)).body.label).toBe('Okta');
  });

  it('is for admins only (403), and SSO enforcement keeps a way to sign in', async () => {
    const org = await newOrg(s);
    const creator = await addPerson(s, org, 'create');
    const denied = await s.api('POST', `/v1/orgs/${org}/saml`, { token: creator.token, body: full });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('creating a SAML provider needs the admin role in this organization (you have create)');
    expect((await s.api('GET', `/v1/orgs/${org}/saml`, { token: creator.token })).status).toBe(403);

    const p = (await s.api('POST', `/v1/orgs/${org}/saml`, { body: full })).body;
    expect((await s.api('GET', `/v1/orgs/${org}/saml/${p.id}`, { token: creator.token })).status).toBe(403);
    expect((await s.api('PATCH', `/v1/orgs/${org}/saml/${p.id}`, { token: creator.token, body: { label: 'x' } })).status).toBe(403);
    expect((await s.api('DELETE', `/v1/orgs/${org}/saml/${p.id}`, { token: creator.token })).status).toBe(403);
    const enforced = await s.api('PATCH', `/v1/orgs/${org}`, { body: { sso: true } });
    expect(enforced.body.sso).toBe(true);
    // Neither deleting nor emptying the only active provider while SSO is enforced.
    expect((await s.api('DELETE', `/v1/orgs/${org}/saml/${p.id}`)).status).toBe(409);
    expect((await s.api('PATCH', `/v1/orgs/${org}/saml/${p.id}`, { body: { certificate: '' } })).status).toBe(409);
    // The team a provider puts people in cannot be deleted under it.
    const team = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Default' } })).body.id;
    await s.api('PATCH', `/v1/orgs/${org}/saml/${p.id}`, { body: { defaultTeam: team } });
    const del = await s.api('DELETE', `/v1/orgs/${org}/teams/${team}`);
    expect(del.status).toBe(409);
    expect(del.body.error.message).toContain(`is the default team of SAML provider ${p.id}`);
    await s.api('PATCH', `/v1/orgs/${org}`, { body: { sso: false } });
    expect((await s.api('DELETE', `/v1/orgs/${org}/saml/${p.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `/v1/orgs/${org}/teams/${team}`)).status).toBe(205);
  });
});
