import { conversationsIdle } from '../../src/conversations/processor.js';
import { processingIdle } from '../../src/openapi/processor.js';
import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { addUser } from './people.js';

// A prepared organization with one of each thing the API serves, made by the server's owner
// through the API (so every fixture is what a user would really have): the generated tests use
// it to address every operation with real ids. `ids` is keyed by the contract's path parameter
// names (`spaceId`, `siteSectionId`, ...), so a path template fills itself.

export const SPEC_TEXT = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'World API', version: '1' },
  paths: { '/ping': { get: { responses: { '200': { description: 'ok' } } } } },
});

export interface World {
  s: TestServer;
  ids: Record<string, string>;
  /** A call as the owner (admin of the world organization) that must succeed; returns the body. */
  owner(method: string, path: string, body?: unknown): Promise<any>;
}

export async function buildWorld(s: TestServer): Promise<World> {
  const ids: Record<string, string> = {};
  const owner = async (method: string, path: string, body?: unknown) => {
    const r = await s.api(method, path, { body });
    expect(r.status, `${method} ${path} -> ${r.status} ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  };
  const w: World = { s, ids, owner };
  const org = (ids.organizationId = (await owner('GET', '/v1/orgs')).items[0].id);
  const o = `/v1/orgs/${org}`;

  // People: a read member (the `userId` of member and team routes), in a team.
  const member = await addUser(s.ctx, org, 'read');
  ids.userId = member.userId;
  ids.teamId = (await owner('PUT', `${o}/teams`, { title: 'World team' })).id;
  await owner('PUT', `${o}/teams/${ids.teamId}/members/${ids.userId}`, {});
  ids.inviteId = (await owner('POST', `${o}/link-invites`, { role: 'read' })).id;
  ids.samlProviderId = (await owner('POST', `${o}/saml`, { label: 'World IdP' })).id;

  // Content: a collection, a space with a page that links a file, a merged and an open change request.
  ids.collectionId = (await owner('POST', `${o}/collections`, { title: 'World collection' })).id;
  ids.spaceId = (await owner('POST', `${o}/spaces`, { title: 'World space', parent: ids.collectionId })).id;
  const sp = `/v1/spaces/${ids.spaceId}`;
  const first = await owner('POST', `${sp}/change-requests`, { subject: 'First pages' });
  await owner('POST', `${sp}/change-requests/${first.id}/content?compat=false`, {
    changes: [
      { operation: 'insert_files', files: [{ name: 'notes.txt', ref: 'notes', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] },
      { operation: 'insert_page', ref: 'intro', title: 'Intro', document: { markdown: 'Install it. See [notes](./notes.txt) and [setup](./setup.md).' } },
      { operation: 'insert_page', ref: 'setup', title: 'Setup', document: { markdown: 'Back to [intro](./intro.md).' } },
    ],
  });
  await owner('POST', `${sp}/change-requests/${first.id}/merge`);
  const pages = (await owner('GET', `${sp}/content/pages`)).pages;
  ids.pageId = pages.find((p: any) => p.title === 'Intro').id;
  ids.pagePath = 'intro';
  ids.fileId = (await owner('GET', `${sp}/content/files`)).items[0].id;
  ids.revisionId = (await owner('GET', `${sp}/content`)).id;
  const open = await owner('POST', `${sp}/change-requests`, { subject: 'Open change' });
  await owner('POST', `${sp}/change-requests/${open.id}/content?compat=false`, {
    changes: [{ operation: 'update_page', page: ids.pageId, document: { markdown: 'Install it again.' } }],
  });
  ids.changeRequestId = open.id;

  // Discussions: a comment with a reply on the space, and one on the open change request (the
  // change-request routes reach only its own comments: `crCommentId`, `crCommentReplyId`).
  ids.commentId = (await owner('POST', `${sp}/comments`, { body: { markdown: 'Is the install step right?' }, page: ids.pageId })).id;
  ids.commentReplyId = (await owner('POST', `${sp}/comments/${ids.commentId}/replies`, { body: { markdown: 'Yes.' } })).id;
  const cr = `${sp}/change-requests/${open.id}`;
  ids.crCommentId = (await owner('POST', `${cr}/comments`, { body: { markdown: 'Why again?' } })).id;
  ids.crCommentReplyId = (await owner('POST', `${cr}/comments/${ids.crCommentId}/replies`, { body: { markdown: 'Clearer.' } })).id;

  // Reviews: a reviewer (review role) asked to review the open change request, who approved it.
  const reviewer = await addUser(s.ctx, org, 'review');
  ids.reviewerId = reviewer.userId;
  await owner('POST', `${cr}/requested-reviewers`, { users: [reviewer.userId] });
  const review = await s.api('POST', `${cr}/reviews`, { token: reviewer.token, body: { status: 'approved' } });
  expect(review.status, JSON.stringify(review.body)).toBe(201);
  ids.reviewId = review.body.id;

  // A site with a section, a section group, a site space and a share link.
  ids.siteId = (await owner('POST', `${o}/sites`, { title: 'World site', spaces: [ids.spaceId] })).id;
  const site = `${o}/sites/${ids.siteId}`;
  ids.siteSectionId = (await owner('POST', `${site}/sections`, { spaceId: ids.spaceId, title: 'Guides' })).id;
  ids.siteSpaceId = (await owner('GET', `${site}/site-spaces`)).items[0].id;
  ids.siteSectionGroupId = (await owner('POST', `${site}/section-groups`, { title: 'Products' })).id;
  ids.shareLinkId = (await owner('POST', `${site}/share-links`, { name: 'Partners' })).id;
  ids.siteRedirectId = (
    await owner('POST', `${site}/redirects`, { source: '/world-old', destination: { kind: 'site-space', siteSpaceId: ids.siteSpaceId } })
  ).id;
  // Insights events: a view with a visitor claim, feedback and a link followed (aggregations answer rows).
  const session = { visitorId: 'wv', sessionId: 'ws', cookies: {}, userAgent: 'Mozilla/5.0 Firefox/120.0', language: 'en', referrer: null };
  const location = {
    url: 'https://docs.example/guides?utm_source=world',
    siteSection: null,
    siteSpace: ids.siteSpaceId,
    siteShareKey: null,
    space: null,
    revision: null,
    page: null,
  };
  await owner('POST', `${site}/insights/events`, {
    events: [
      { type: 'page_view', session: { ...session, visitorAuthClaims: { plan: 'pro' } }, location },
      { type: 'page_post_feedback', session, location, feedback: { rating: 'good' } },
      { type: 'link_click', session, location, link: { target: { kind: 'url', url: 'https://example.com/' }, position: 'content' } },
    ],
  });

  // An OpenAPI spec (private), processed into a version.
  ids.specSlug = 'world-spec';
  await owner('PUT', `${o}/openapi/${ids.specSlug}`, { source: { text: SPEC_TEXT } });
  await processingIdle(s.ctx);
  ids.versionId = (await owner('GET', `${o}/openapi/${ids.specSlug}/versions`)).items[0].id;

  // An integration (private, owned by the organization) installed in it, with its events.
  ids.integrationName = 'world-integration';
  await owner('POST', `/v1/integrations/${ids.integrationName}`, integrationManifest(org));
  ids.installationId = (await owner('POST', `/v1/integrations/${ids.integrationName}/installations`, { organization: org })).id;
  ids.eventId = (await owner('GET', `/v1/integrations/${ids.integrationName}/events`)).items[0].id;

  // A conversation, processed into an issue and a cluster.
  await owner('POST', `${o}/conversations`, {
    id: 'world-1',
    subject: 'Reset email never arrives',
    parts: [{ type: 'message', role: 'user', body: 'I cannot reset my password: the reset email never arrives.' }],
  });
  await conversationsIdle(s.ctx);
  ids.conversationId = (await owner('GET', `${o}/conversations`)).items[0].id;
  ids.issueId = (await owner('GET', `${o}/conversations-issues`)).items[0].issue.id;
  ids.clusterId = (await owner('GET', `${o}/conversations-clusters`)).items[0].id;
  // Its agent task (src/agents: one per cluster, acting on the organization's oldest space).
  ids.agentTaskId = (await owner('GET', `${o}/agent-tasks`)).items[0].id;

  // A translation of the space.
  ids.translationId = (await owner('POST', `${o}/translations`, { language: 'fr', source: { space: ids.spaceId, language: 'en' } })).id;
  return w;
}

export function integrationManifest(org: string, over: Record<string, unknown> = {}) {
  return {
    organization: org,
    title: 'World tool',
    description: 'A tool of the world',
    script: 'export default {}',
    visibility: 'private',
    scopes: ['space:content:read'],
    ...over,
  };
}
