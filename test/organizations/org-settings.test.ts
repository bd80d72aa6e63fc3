import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from './people.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());

describe('PATCH /orgs/{id} (updateOrganizationById)', () => {
  it('updates every writable field and shows them back', async () => {
    const org = await newOrg(s);
    const me = (await s.api('GET', '/v1/user')).body.id;
    const r = await s.api('PATCH', `/v1/orgs/${org}`, {
      body: {
        title: '  Acme Docs  ',
        hostname: 'acme-docs',
        emailDomains: ['Acme.com', 'acme.com', 'docs.acme.io'],
        defaultRole: 'edit',
        logo: 'https://acme.com/logo.png',
        ai: true,
        inviteLinks: false,
        mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [me] }, { rule: 'require_at_least_one_review' }] },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      title: 'Acme Docs',
      hostname: 'acme-docs',
      emailDomains: ['acme.com', 'docs.acme.io'],
      defaultRole: 'edit',
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://acme.com/logo.png' },
      mergeRules: { type: 'rules' },
    });
    expect((await s.api('GET', `/v1/orgs/${org}`)).body).toEqual(r.body);
    // null clears the logo; defaultRole null makes newcomers guests.
    const cleared = await s.api('PATCH', `/v1/orgs/${org}`, { body: { logo: null, defaultRole: null } });
    expect(cleared.body.urls.logo).toBeUndefined();
    expect(cleared.body.defaultRole).toBeNull();
  });

  it('enforces the limits with a 400 naming the field, changing nothing', async () => {
    const org = await newOrg(s);
    const before = (await s.api('GET', `/v1/orgs/${org}`)).body;
    const cases: [object, string][] = [
      [{ title: 'A' }, 'body.title: must NOT have fewer than 2 characters'],
      [{ title: 'x'.repeat(256) }, 'body.title: must NOT have more than 255 characters'],
      [{ title: ' A ' }, 'title: must be 2 to 255 characters'],
      [{ hostname: 'ab' }, 'body.hostname: must NOT have fewer than 3 characters'],
      [{ hostname: 'a'.repeat(33) }, 'body.hostname: must NOT have more than 32 characters'],
      [{ hostname: 'Acme' }, 'hostname: must be lowercase letters, digits and hyphens, starting and ending with a letter or digit'],
      [{ hostname: '-acme' }, 'hostname: must be lowercase letters, digits and hyphens, starting and ending with a letter or digit'],
      [{ logo: 'not a uri' }, 'body.logo: must match format "uri"'],
      [{ logo: 'https://x.test/' + 'a'.repeat(2048) }, 'body.logo: must NOT have more than 2048 characters'],
      [{ emailDomains: ['acme.com', 'not a domain'] }, 'emailDomains[1]: "not a domain" is not a domain name'],
      [{ defaultRole: 'owner' }, 'body.defaultRole: must be one of "admin", "create", "edit", "review", "comment", "read", null'],
      [{ mergeRules: { type: 'inherit' } }, 'body.mergeRules.rules: is required'],
      [
        { mergeRules: { type: 'rules', rules: [{ rule: 'allow_bypass', users: ['nobody'] }] } },
        'mergeRules.rules[0].users[0]: nobody is not a member of this organization',
      ],
      [{ defaultContent: { type: 'site', site: 'nosite' } }, 'defaultContent: invalid default content: no site nosite in this organization'],
      [{ sso: true }, 'sso: needs an active SAML provider (one with entityID, certificate and ssoURL set)'],
      [{}, 'body: nothing to update'],
    ];
    const got: string[] = [];
    for (const [body] of cases) {
      const r = await s.api('PATCH', `/v1/orgs/${org}`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      got.push(r.body.error.message);
    }
    expect(got).toEqual(cases.map((c) => c[1]));
    expect((await s.api('GET', `/v1/orgs/${org}`)).body).toEqual(before);
  });

  it('keeps hostnames unique across organizations (409)', async () => {
    const a = await newOrg(s);
    const b = await newOrg(s);
    expect((await s.api('PATCH', `/v1/orgs/${a}`, { body: { hostname: 'unique-host' } })).status).toBe(200);
    const r = await s.api('PATCH', `/v1/orgs/${b}`, { body: { hostname: 'unique-host' } });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe('hostname: unique-host is already used by another organization');
    // Setting an organization's own hostname again is fine.
    expect((await s.api('PATCH', `/v1/orgs/${a}`, { body: { hostname: 'unique-host', title: 'Same host' } })).status).toBe(200);
  });

  it('lets only admins change the organization (403 naming the role), and hides it from non-members (404)', async () => {
    const org = await newOrg(s);
    const creator = await addPerson(s, org, 'create');
    const r = await s.api('PATCH', `/v1/orgs/${org}`, { token: creator.token, body: { title: 'Mine now' } });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('changing the organization needs the admin role in this organization (you have create)');
    const stranger = await outsider(s);
    expect((await s.api('PATCH', `/v1/orgs/${org}`, { token: stranger.token, body: { title: 'Mine now' } })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}`)).body.title).not.toBe('Mine now');
  });

  it('validates email domains on create too', async () => {
    const r = await s.api('POST', '/v1/orgs', { body: { title: 'Bad domains', emailDomains: ['acme'] } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('emailDomains[0]: "acme" is not a domain name');
  });
});
