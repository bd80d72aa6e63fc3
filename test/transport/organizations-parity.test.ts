import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '../../src/transport/types.js';
import { runBoth, recorder } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** The organizations area, end to end, as observable outcomes (bodies, statuses, error kinds and messages). */
async function scenario(t: Transport) {
  const { out, step } = recorder();
  const org = (await step(() => t.call('createOrganization', { body: { title: 'Parity Orgs' } }))).id;
  const o = { organizationId: org };
  await step(() => t.call('updateOrganizationById', { path: o, body: { hostname: 'parity-host', emailDomains: ['acme.com'], defaultRole: 'edit' } }));
  await step(() => t.call('updateOrganizationById', { path: o, body: { hostname: 'Bad Host' } }));
  // Members are listed by when they joined: the owner (at creation) and the invited must not
  // share a millisecond on one transport and not on the other (the order would differ).
  await new Promise((resolve) => setTimeout(resolve, 3));
  const invited = await step(() => t.call('inviteUsersToOrganization', { path: o, body: { emails: ['ann@acme.com', { email: 'bob@acme.com', role: null }] } }));
  const [ann, bob] = invited.users;
  await step(() => t.call('listMembersInOrganizationById', { path: o, query: { order: 'asc' } }));
  await step(() => t.call('listMembersInOrganizationById', { path: o, query: { role: 'guest' } }));
  await step(() => t.call('updateMemberInOrganizationById', { path: { ...o, userId: ann }, body: { role: 'review' } }));
  const team = await step(() => t.call('createOrganizationTeam', { path: o, body: { title: 'Parity team', members: [ann] } }));
  await step(() =>
    t.call('updateMembersInOrganizationTeam', { path: { ...o, teamId: team.id }, body: { add: ['bob@acme.com'], memberships: { [ann]: { role: 'owner' } } } }),
  );
  await step(() => t.call('listTeamMembersInOrganizationById', { path: { ...o, teamId: team.id } }));
  await step(() => t.call('listTeamsForOrganizationMember', { path: { ...o, userId: ann } }));
  await step(() => t.call('createOrganizationTeam', { path: o, body: { title: 'PARITY TEAM' } }));
  const link = await step(() => t.call('createOrganizationInvite', { path: o, body: { role: 'comment' } }));
  await step(() => t.call('listOrganizationInviteLinks', { path: o }));
  const saml = await step(() => t.call('createOrganizationSAMLProvider', { path: o, body: { label: 'Okta', defaultTeam: team.id } }));
  await step(() =>
    t.call('updateOrganizationSAMLProvider', {
      path: { ...o, samlProviderId: saml.id },
      body: { entityID: 'urn:x', certificate: 'MII', ssoURL: 'https://idp.test/sso' },
    }),
  );
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

describe('transport parity: organizations area', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP', async () => {
    const { local: a, remote: b } = await runBoth(server, scenario);
    expect(a).toEqual(b);
    const text = JSON.stringify(a);
    expect(text).toContain('"kind":"invalid"');
    expect(text).toContain('"kind":"conflict"');
    expect(text).toContain('"kind":"not_found"');
    expect(a[a.length - 1]).toBe(true);
  });
});
