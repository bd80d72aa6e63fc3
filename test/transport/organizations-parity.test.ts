import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';

/** The organizations area, end to end, as observable outcomes (bodies, statuses, error kinds and messages). */
async function scenario(t: Transport) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<{ status: number; body: unknown }>) => {
    try {
      const r = await fn();
      out.push([r.status, r.body]);
      return r.body as any;
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
      return undefined;
    }
  };
  const org = (await step(() => t.call('createOrganization', { body: { title: 'Parity Orgs' } }))).id;
  const o = { organizationId: org };
  await step(() => t.call('updateOrganizationById', { path: o, body: { hostname: 'parity-host', emailDomains: ['acme.com'], defaultRole: 'edit' } }));
  await step(() => t.call('updateOrganizationById', { path: o, body: { hostname: 'Bad Host' } }));
  const invited = await step(() => t.call('inviteUsersToOrganization', { path: o, body: { emails: ['ann@acme.com', { email: 'bob@acme.com', role: null }] } }));
  const [ann, bob] = invited.users;
  await step(() => t.call('listMembersInOrganizationById', { path: o, query: { order: 'asc' } }));
  await step(() => t.call('listMembersInOrganizationById', { path: o, query: { role: 'guest' } }));
  await step(() => t.call('updateMemberInOrganizationById', { path: { ...o, userId: ann }, body: { role: 'review' } }));
  const team = await step(() => t.call('createOrganizationTeam', { path: o, body: { title: 'Parity team', members: [ann] } }));
  await step(() => t.call('updateMembersInOrganizationTeam', { path: { ...o, teamId: team.id }, body: { add: ['bob@acme.com'], memberships: { [ann]: { role: 'owner' } } } }));
  await step(() => t.call('listTeamMembersInOrganizationById', { path: { ...o, teamId: team.id } }));
  await step(() => t.call('listTeamsForOrganizationMember', { path: { ...o, userId: ann } }));
  await step(() => t.call('createOrganizationTeam', { path: o, body: { title: 'PARITY TEAM' } }));
  const link = await step(() => t.call('createOrganizationInvite', { path: o, body: { role: 'comment' } }));
  await step(() => t.call('listOrganizationInviteLinks', { path: o }));
  const saml = await step(() => t.call('createOrganizationSAMLProvider', { path: o, body: { label: 'Okta', defaultTeam: team.id } }));
  await step(() => t.call('updateOrganizationSAMLProvider', { path: { ...o, samlProviderId: saml.id }, body: { entityID: 'urn:x', certificate: 'MII', ssoURL: 'https://idp.test/sso' } }));
  await step(() => t.call('listSSOProviderLoginsInOrganization', { path: o }));
  await step(() => t.call('removeTeamFromOrganizationById', { path: { ...o, teamId: team.id } }));
  await step(() => t.call('updateOrganizationAgentInstructions', { path: o, body: { instructions: { object: 'document', data: {}, nodes: [] } } }));
  await step(() => t.call('getOrganizationAgentInstructions', { path: o }));
  await step(() => t.call('removeMemberFromOrganizationById', { path: { ...o, userId: bob } }));
  await step(() => t.call('removeMemberFromOrganizationById', { path: { ...o, userId: bob } }));
  await step(() => t.call('deleteOrganizationInviteById', { path: { ...o, inviteId: link.id } }));
  await step(() => t.call('getMemberInOrganizationById', { path: { ...o, userId: bob } }));
  const ping = await step(() => t.call('updateOrganizationMemberLastSeenAt', { path: o }));
  out.push(typeof ping?.gitbookVisitorClaims === 'string' && ping.gitbookVisitorClaims.split('.').length === 3);
  return out;
}

/** Ids, times, tokens and the base URL differ between two stores; everything else must not. */
function normalize(value: unknown, base: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: any): any => {
    if (typeof v === 'string') {
      if (/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(v)) return '{jwt}';
      let s = v.split(base).join('{base}');
      s = s.replace(/\b[A-Za-z0-9]{20}\b/g, (id) => {
        if (!ids.has(id)) ids.set(id, `{id${ids.size}}`);
        return ids.get(id)!;
      });
      return /^\d{4}-\d\d-\d\dT/.test(s) ? '{time}' : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'page' ? '{cursor}' : walk(x)]));
    return v;
  };
  return walk(value);
}

describe('transport parity: organizations area', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP', async () => {
    const ctx = await openContext(undefined, { baseUrl: 'http://local.test' });
    const boot = await bootstrap(ctx, 'gb_api_local');
    const local = LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
    const remote = new HttpTransport(server.url, TEST_TOKEN);
    const a = normalize(await scenario(local), 'http://local.test');
    const b = normalize(await scenario(remote), server.url);
    expect(a).toEqual(b);
    const text = JSON.stringify(a);
    expect(text).toContain('"kind":"invalid"');
    expect(text).toContain('"kind":"conflict"');
    expect(text).toContain('"kind":"not_found"');
    expect(a[a.length - 1]).toBe(true);
  });
});
