import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractRoutes, operationSpec } from '../../src/contract/spec.js';
import { OPERATIONS } from '../../src/operations.js';
import { addUser } from '../helpers/people.js';
import { requiredQuery, sample } from '../helpers/samples.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The authorization matrix, generated from the operation registry so that a new operation
// cannot skip it: a user outside the organization gets 404 (or 403) on every operation that
// addresses the organization's things, with real ids and bodies that pass validation.
// 404 is the rule (docs/manual/decisions.md: existence is not revealed); 403 is accepted where the
// operation is addressed by something other than an organization's resource.

// Operations any authenticated user may call whatever their organizations (not org-scoped).
const OPEN_TO_ANYONE = new Set([
  'getAuthenticatedUser',
  'getApiInformation',
  'getEmbedByUrl', // an embed of any address; this server's own pages only as the caller may read them
  'getContentByUrl', // answers with what the caller may read, 404 otherwise (tested in test/urls)
  'getUserById',
  'listOrganizationsForAuthenticatedUser',
  'createOrganization',
  'joinOrganization', // refused unless the caller's email domain is listed: checked below
  'joinOrganizationWithInvite',
  'getOrganizationInviteLink',
  'listIntegrations',
  'getIntegrationByName',
  'publishIntegration',
]);

// Writes a `read` member may make: about themselves (their agent conversations); POSTs that change nothing (a render is
// asked of the integration and changes no row: docs/manual/integrations.md#ui-render-and-tasks);
// asking questions (POST in the contract, reads of the content: docs/manual/ask.md); a site's
// events, recorded by whoever may read the site as its visitors do, and aggregated by a POST that
// changes nothing (docs/manual/insights.md).
const READER_WRITES = new Set([
  'updateOrganizationMemberLastSeenAt',
  'renderIntegrationUIWithPost',
  'askInOrganization',
  'streamAskInSite',
  'streamAIResponseInSite',
  'trackEventsInSiteById',
  'aggregateSiteEvents',
  // A reader's own conversations with the organization agent (docs/manual/agents.md#organization-agent-conversations),
  // and computed content, POSTs that store nothing (docs/manual/content.md#computed-content).
  'provisionOrganizationAgentConversation',
  'getComputedDocument',
  'getComputedRevision',
  // Agent feedback is an insights event of the site (docs/manual/site-agents.md#agent-feedback).
  'submitSiteAgentFeedback',
  'submitAgentFeedbackToSite',
]);

/**
 * A 400 from the contract's own validation (messages start with body./query./path.) means the
 * generated sample did not fit a pattern: the handler was not reached, so it says nothing about
 * rights. Few operations are concerned; the count is checked.
 */
const refusedByContract: string[] = [];
async function byContract(r: Response): Promise<boolean> {
  if (r.status !== 400) return false;
  const body = (await r
    .clone()
    .json()
    .catch(() => undefined)) as any;
  const yes = /^(body|query|path)[.:]/.test(body?.error?.message ?? '');
  if (yes) refusedByContract.push(`${new URL(r.url).pathname}: ${body.error.message}`);
  return yes;
}

let s: TestServer;
const ids: Record<string, string> = {};

describe('authorization matrix: outsiders', () => {
  beforeAll(async () => {
    s = await startServer();
    const org = (ids.organizationId = (await s.api('GET', '/v1/orgs')).body.items[0].id);
    ids.userId = (await s.api('GET', '/v1/user')).body.id;
    ids.collectionId = (await s.api('POST', `/v1/orgs/${org}/collections`, { body: { title: 'Private' } })).body.id;
    ids.spaceId = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Private' } })).body.id;
    ids.teamId = (await s.api('PUT', `/v1/orgs/${org}/teams`, { body: { title: 'Team' } })).body?.id;
    ids.inviteId = (await s.api('POST', `/v1/orgs/${org}/link-invites`, { body: { role: 'read' } })).body?.id;
    ids.samlProviderId = (await s.api('POST', `/v1/orgs/${org}/saml`, { body: { label: 'IdP' } })).body?.id;
    const site = await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Private site', spaces: [ids.spaceId] } });
    expect(site.status).toBe(201);
    ids.siteId = site.body.id;
    ids.siteSpaceId = (await s.api('GET', `/v1/orgs/${org}/sites/${ids.siteId}/site-spaces`)).body.items[0]?.id;
    ids.integrationName = 'private-integration';
    const published = await s.api('POST', '/v1/integrations/private-integration', {
      body: {
        organization: org,
        title: 'Private',
        description: 'Private tool',
        script: 'export default {}',
        visibility: 'private',
        scopes: ['space:content:read'],
      },
    });
    expect(published.status).toBeLessThan(300);
    // A real comment and reply, so comment routes are tried on something that exists.
    ids.commentId = (await s.api('POST', `/v1/spaces/${ids.spaceId}/comments`, { body: { body: { markdown: 'Private' } } })).body.id;
    ids.commentReplyId = (
      await s.api('POST', `/v1/spaces/${ids.spaceId}/comments/${ids.commentId}/replies`, { body: { body: { markdown: 'Reply' } } })
    ).body.id;
    ids.specSlug = 'private-spec';
    await s.api('PUT', `/v1/orgs/${org}/openapi/private-spec`, {
      body: { source: { text: '{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{}}' } },
    });
  });
  afterAll(() => s?.stop());

  it('never lets a user outside the organization read or change its things', async () => {
    const outsider = await addUser(s.ctx);
    const routes = new Map(contractRoutes().map(([m, p, id]) => [id, [m, p] as const]));
    const leaks: string[] = [];
    for (const { operationId } of OPERATIONS) {
      if (OPEN_TO_ANYONE.has(operationId)) continue;
      const op = operationSpec(operationId);
      const [method, template] = routes.get(operationId)!;
      const url = '/v1' + template.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(ids[n] ?? 'unknown')) + requiredQuery(op);
      const body = op.requestBody ? sample(op, op.requestBody.schema) : undefined;
      const r = await fetch(s.url + url, {
        method,
        headers: { authorization: `Bearer ${outsider.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      if (r.status !== 404 && r.status !== 403 && !(method === 'DELETE' && r.status === 204) && !(await byContract(r)))
        leaks.push(`${operationId} ${method} ${url} -> ${r.status} ${(await r.text()).slice(0, 160)}`);
    }
    expect(leaks, leaks.join('\n')).toEqual([]);
    // A sample body the contract refuses never reaches the access check: only a few may.
    expect(refusedByContract.length, refusedByContract.join('\n')).toBeLessThan(5);
  });

  it('refuses every write to a member with the read role (403, or 404 where they cannot see it)', async () => {
    const reader = await addUser(s.ctx, ids.organizationId, 'read');
    const routes = new Map(contractRoutes().map(([m, p, id]) => [id, [m, p] as const]));
    const allowed: string[] = [];
    for (const { operationId } of OPERATIONS) {
      const [method, template] = routes.get(operationId)!;
      if (method === 'GET' || OPEN_TO_ANYONE.has(operationId) || READER_WRITES.has(operationId)) continue;
      const op = operationSpec(operationId);
      const url = '/v1' + template.replace(/\{([^}]+)\}/g, (_, n: string) => encodeURIComponent(ids[n] ?? 'unknown'));
      const body = op.requestBody ? sample(op, op.requestBody.schema) : undefined;
      const r = await fetch(s.url + url, {
        method,
        headers: { authorization: `Bearer ${reader.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      if (r.status !== 403 && r.status !== 404 && !(method === 'DELETE' && r.status === 204) && !(await byContract(r)))
        allowed.push(`${operationId} ${method} ${url} -> ${r.status} ${(await r.text()).slice(0, 160)}`);
    }
    expect(allowed, allowed.join('\n')).toEqual([]);
  });

  it('refuses joining by email domain when the domain is not listed (403)', async () => {
    const outsider = await addUser(s.ctx);
    expect((await s.api('POST', `/v1/orgs/${ids.organizationId}/join`, { token: outsider.token })).status).toBe(403);
  });

  // docs/manual/access.md#who-may-act-as-whom; the attacks are in test/security/.
  it("gives an organization admin nothing over another user's account: tokens, marks, invitations", async () => {
    const admin = await addUser(s.ctx, ids.organizationId, 'admin');
    const stranger = await addUser(s.ctx);
    const other = await s.api('POST', '/v1/orgs', { token: stranger.token, body: { title: 'Other' } });
    await s.api('POST', `/v1/orgs/${other.body.id}/invites`, { token: stranger.token, body: { emails: ['owner@localhost'] } });
    const invitation = (await s.docs('GET', '/_docs/invitations')).body.items[0].id;
    const attempts: [string, string, unknown?][] = [
      ['POST', '/_docs/tokens', { user: 'owner@localhost' }],
      ['POST', '/_docs/tokens', { user: ids.userId }],
      ['GET', '/_docs/tokens?user=owner@localhost'],
      ['GET', '/_docs/users'],
      ['GET', `/_docs/users/${ids.userId}`],
      ['PATCH', `/_docs/users/${ids.userId}`, { emailVerified: false }],
      ['PATCH', `/_docs/users/${admin.userId}`, { instanceOwner: true }],
      ['POST', `/_docs/invitations/${invitation}/accept`],
      ['POST', `/_docs/invitations/${invitation}/decline`],
    ];
    const allowed: string[] = [];
    for (const [method, path, body] of attempts) {
      for (const who of [admin, stranger]) {
        const r = await s.docs(method, path, { token: who.token, body });
        if (r.status !== 403 && r.status !== 404) allowed.push(`${method} ${path} -> ${r.status}`);
      }
    }
    expect(allowed, allowed.join('\n')).toEqual([]);
    expect((await s.docs('GET', '/_docs/invitations')).body.items.map((i: any) => i.id)).toEqual([invitation]);
    expect((await s.api('GET', `/v1/orgs/${other.body.id}`)).status).toBe(404);
  });
});
