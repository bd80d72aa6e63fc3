import { expect } from 'vitest';
import { SiteAds } from '../../src/sites/ads.js';
import { contractRoutes } from '../../src/contract/spec.js';
import { ROLES, type Role } from '../../src/kernel/roles.js';
import { addMember, addUser } from '../helpers/people.js';
import type { TestServer } from '../helpers/server.js';
import { integrationManifest, SPEC_TEXT, type World } from '../helpers/world.js';
import { Users } from '../../src/users/tables.js';
import { compressToEncodedURIComponent } from '../../src/kernel/lz-string.js';
import { repoId } from '../../src/git/local-repos.js';
import { scanSite } from '../../src/site-context/scan.js';

// The "right role -> success" half of the authorization matrix: for every registered operation,
// the least role that must succeed, on the prepared world of test/helpers/world.ts. The test
// (least-role.test.ts) calls each operation as a fresh user with exactly that role and expects
// a 2xx that matches the contract, and as a fresh user with the role just below and expects
// 403/404 (so the entry is really the least). An operation without an entry fails the test.
//
// Adding an entry is usually one line:  `myOperation: { as: 'edit', body: () => ({ title: 'x' }) },`
// - `as`: 'anyone' (any authenticated user, no membership), 'guest' (a member with no role), or
//   a role ('read' < 'comment' < 'edit' < 'review' < 'create' < 'admin'): the organization role
//   of the caller in the world's organization (content levels are left to `inherit`).
// - path parameters are filled from the world's ids by name (`spaceId`, `changeRequestId`, ...);
// - `setup(w)` (as the owner, before the calls) returns ids to use instead, e.g. a fixture of
//   the case's own for a delete; `w.me`/`w.lesser` are the two callers' user ids;
// - `body(w)`, `query(w)` build the input from the world (and the setup's ids);
// - order: the test runs GETs, then other writes, then DELETEs, each in table order.

export type Who = 'anyone' | 'guest' | Role;

export interface CaseWorld extends World {
  /** The world's ids with the setup's on top. */
  ids: Record<string, string>;
  /** The user ids of the caller with the role (`me`) and of the one below it (`lesser`). */
  me: string;
  lesser?: string;
  /** Makes `user` a member of `org` with `role` (e.g. to take part in a transfer). */
  member(org: string, user: string, role: Role | null): Promise<void>;
  /** A new member of the world's organization with `role`: their user id. */
  newMember(role: Role | null): Promise<string>;
  /** A call as the caller with the role (`me`), for what only its owner reaches (an agent conversation): the status. */
  asMe(method: string, path: string, body?: unknown): Promise<number>;
}

export interface Case {
  as: Who;
  setup?: (w: CaseWorld) => Promise<Record<string, string>>;
  body?: (w: CaseWorld) => unknown;
  query?: (w: CaseWorld) => Record<string, string>;
  /** Request headers the operation declares (e.g. the ads partner's X-GitBook-Partner-Key). */
  headers?: (w: CaseWorld) => Record<string, string>;
  /**
   * For operations that answer everyone and filter (lists, search): whether the answer shows
   * the world's thing. The least role must see it; the role below may get a 200 without it.
   */
  sees?: (body: any, w: CaseWorld) => boolean;
  /** A DELETE that can only answer 204 ("nothing there") on this server: why (no 205 expected). */
  nothingToDelete?: string;
}

const partnerKey = () => {
  process.env.DOCS_ADS_PARTNER_KEY = 'least-role-partner';
  return { 'X-GitBook-Partner-Key': 'least-role-partner' };
};

const lists = (key: string) => (b: any, w: CaseWorld) => b.items.some((x: any) => x.id === w.ids[key]);

const org = (w: CaseWorld) => `/v1/orgs/${w.ids.organizationId}`;
const site = (w: CaseWorld) => `${org(w)}/sites/${w.ids.siteId}`;
/** A question asked of the world's site (its id from the site's questions). */
async function siteQuestion(w: CaseWorld): Promise<string> {
  await w.owner('POST', `${site(w)}/ask`, { question: 'install', scope: { mode: 'all' } });
  return (await w.owner('GET', `${site(w)}/questions?sort=askedAt`)).items[0].id;
}
/** An answer the world's site gave. */
async function siteAnswer(w: CaseWorld): Promise<string> {
  await w.owner('POST', `${site(w)}/ask`, { question: 'install', scope: { mode: 'all' } });
  return (await w.owner('GET', `${site(w)}/answers?limit=1`)).items[0].id;
}
const newSpace = async (w: CaseWorld, title = 'Case space') => (await w.owner('POST', `${org(w)}/spaces`, { title })).id as string;
const newOrgWithBoth = async (w: CaseWorld) => {
  // A transfer needs admin in both organizations: both callers are admins of the target, so
  // the one below is refused for their role in the source alone.
  const target = (await w.owner('POST', '/v1/orgs', { title: 'Transfer target' })).id as string;
  await w.member(target, w.me, 'admin');
  if (w.lesser) await w.member(target, w.lesser, 'admin');
  return target;
};
/**
 * A content gap found on the world's site: a question no page answers, asked twice, and a scan
 * (src/site-context/scan.ts): the finding, its topic and the scan.
 */
async function siteFinding(w: CaseWorld): Promise<Record<string, string>> {
  for (let i = 0; i < 2; i++) await w.owner('POST', `${site(w)}/ask`, { question: 'Where does the quantum parrot sleep?', scope: { mode: 'all' } });
  const scan = await scanSite(w.s.ctx, w.ids.organizationId!, w.ids.siteId!);
  const gap = (await w.owner('GET', `${site(w)}/findings?type=content-gap`)).items.find((f: any) => /parrot/i.test(f.title));
  return { siteScanId: scan.id, siteFindingId: gap.id, siteTopicId: gap.topic };
}
/** A new public site of the world's space, published: its address. */
const publishedSite = async (w: CaseWorld) => {
  const id = (await w.owner('POST', `${org(w)}/sites`, { title: 'Looked up', spaces: [w.ids.spaceId] })).id;
  return (await w.owner('POST', `${org(w)}/sites/${id}/publish`)).urls.published as string;
};
const publish = async (w: CaseWorld, name: string) => {
  await w.owner('POST', `/v1/integrations/${name}`, integrationManifest(w.ids.organizationId!));
  return name;
};
/** A conversation with the organization agent, provisioned by the case's caller (its creator). */
const agentConversation = async (w: CaseWorld) => {
  const conversationId = unique('case-agent');
  const status = await w.asMe('PUT', `${org(w)}/agent/conversations/${conversationId}`);
  if (status !== 204) throw new Error(`provisioning an agent conversation: ${status}`);
  return { conversationId };
};
/**
 * The agent's `default` conversation in a change request of the world's space: a style guide run
 * writes its fix draft (the same one, taken over, at every run) and records it there.
 */
const crConversation = async (w: CaseWorld) => {
  await w.owner('POST', `${site(w)}/styleguide`, {});
  const run = await w.owner('POST', `${site(w)}/styleguide/runs`, { spaces: [w.ids.spaceId] });
  return { changeRequestId: run.changeRequests[0].id as string, conversationId: 'default' };
};
const sp = (w: CaseWorld) => `/v1/spaces/${w.ids.spaceId}`;
const cr = (w: CaseWorld) => `${sp(w)}/change-requests/${w.ids.changeRequestId}`;
// The change-request forms of the comment routes reach only that change request's comments.
const crComment = async (w: CaseWorld) => ({ commentId: w.ids.crCommentId!, commentReplyId: w.ids.crCommentReplyId! });
/** A reusable content block in a change request of its own (merged: then in the space's current revision too). */
const reusableBlock = async (w: CaseWorld, merge: boolean): Promise<Record<string, string>> => {
  const c = await w.owner('POST', `${sp(w)}/change-requests`, { subject: 'Block' });
  const r = await w.owner('POST', `${sp(w)}/change-requests/${c.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', type: 'reusable-content', title: 'Case block', document: { markdown: 'Reused.' } }],
  });
  const reusableContentId = r.changes[0].page.id ?? r.changes[0].page;
  if (!merge) return { reusableContentId, changeRequestId: c.id as string };
  await w.owner('POST', `${sp(w)}/change-requests/${c.id}/merge`);
  return { reusableContentId, revisionId: (await w.owner('GET', `${sp(w)}/content`)).id as string };
};
const post = { body: { markdown: 'Posted by a case.' } };
const react = { addedReactions: ['👍'] };
/** A reviewer the world's change request may be asked about: a member with the review role. */
const requested = async (w: CaseWorld) => {
  const userId = await w.newMember('review');
  await w.owner('POST', `${cr(w)}/requested-reviewers`, { users: [userId] });
  return { userId };
};
/** An installation of a case's own, on selected spaces and sites only: on the world's space or site when `on` says so. */
const ownInstallation = async (w: CaseWorld, on?: 'space' | 'site') => {
  const name = await publish(w, unique('case-content'));
  const i = await w.owner('POST', `/v1/integrations/${name}/installations`, { organization: w.ids.organizationId });
  const at = `/v1/integrations/${name}/installations/${i.id}`;
  await w.owner('PATCH', at, { space_selection: 'selected', site_selection: 'selected' });
  if (on === 'space') await w.owner('POST', `${at}/spaces`, { space: w.ids.spaceId });
  if (on === 'site') await w.owner('POST', `${at}/sites`, { siteId: w.ids.siteId });
  return { integrationName: name, installationId: i.id };
};
let n = 0;
const unique = (prefix: string) => `${prefix}-${++n}`;

/** Servers a case starts (a loopback address that never answers): closed after the matrix. */
const CASE_SERVERS = new Set<import('node:http').Server>();
export function closeCaseServers(): void {
  for (const server of CASE_SERVERS) server.closeAllConnections(), server.close();
  CASE_SERVERS.clear();
}

/** A font file uploaded through a fresh upload URL (docs/manual/site-delivery.md#custom-fonts): its storage key. */
const fontKey = async (w: CaseWorld) => {
  const bytes = Buffer.concat([Buffer.from('wOF2', 'latin1'), Buffer.alloc(60)]);
  const up = await w.owner('POST', `${org(w)}/storage/upload`, {
    kind: 'customization_font',
    file: { name: 'a.woff2', type: 'font/woff2', size: bytes.length },
  });
  const r = await fetch(up.url, { method: 'PUT', body: bytes });
  if (r.status !== 200) throw new Error(`font upload: ${r.status} ${await r.text()}`);
  return up.key as string;
};
/** A custom hostname of the world's site, resolving here (`.localhost`: docs/manual/site-delivery.md#custom-hostnames). */
const newHostname = async (w: CaseWorld) => {
  const hostname = `c${Math.random().toString(36).slice(2, 10)}.case.localhost`;
  const r = await fetch(`${w.s.url}/_docs/custom-hostnames`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.s.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ organization: w.ids.organizationId, site: w.ids.siteId, hostname }),
  });
  if (r.status !== 201) throw new Error(`custom hostname: ${r.status} ${await r.text()}`);
  return hostname;
};
/** A site MCP endpoint configuration of the world's site, at an endpoint of its own. */
const newMcpServer = async (w: CaseWorld) =>
  (
    await w.owner('POST', `${site(w)}/mcp-servers`, {
      name: 'Case endpoint',
      url: `https://docs.example.com/mcp/c${Math.random().toString(36).slice(2, 10)}`,
      headers: {},
    })
  ).id as string;
/** A site of the case's own with a section holding a new space (docs/manual/site-agents.md): its id and its site space's. */
const caseSite = async (w: CaseWorld, empty = false): Promise<Record<string, string>> => {
  const made = (await w.owner('POST', `${org(w)}/sites`, { title: 'Case site' })).id as string;
  if (empty) return { siteId: made };
  await w.owner('POST', `${org(w)}/sites/${made}/sections`, { spaceId: await newSpace(w) });
  return { siteId: made, siteSpaceId: (await w.owner('GET', `${org(w)}/sites/${made}/site-spaces`)).items[0].id as string };
};
const caseChannel = async (w: CaseWorld) => {
  const ids = await caseSite(w, true);
  const ch = await w.owner('POST', `${org(w)}/sites/${ids.siteId}/channels`, { type: 'builtin:slack', setupSettings: { allowedChannels: ['help'] } });
  return { ...ids, siteChannelId: ch.id as string };
};
/** A site of the case's own with a builtin:api context connection and one record pushed to it. */
const caseContext = async (w: CaseWorld) => {
  const ids = await caseSite(w, true);
  const at = `${org(w)}/sites/${ids.siteId}`;
  const conn = await w.owner('POST', `${at}/context-connections`, { connector: 'builtin:api' });
  await w.owner('PUT', `${at}/context-records`, [{ id: 'case-1', type: 'ticket', title: 'Case ticket', body: 'Case.' }]);
  const record = (await w.owner('GET', `${at}/context-records`)).items[0].id as string;
  return { ...ids, siteContextConnectionId: conn.id as string, siteContextRecordId: record };
};
const caseLink = async (w: CaseWorld) => {
  const ids = await caseSite(w);
  const l = await w.owner('POST', `${org(w)}/sites/${ids.siteId}/external-links`, { title: 'Case link', url: 'https://status.example.com' });
  return { siteId: ids.siteId!, siteExternalLinkId: l.id as string };
};
const newFont = async (w: CaseWorld) =>
  (await w.owner('PUT', `${org(w)}/fonts`, { fontFamily: 'Case font', fontFaces: [{ weight: 400, storageKey: await fontKey(w) }] })).id as string;
/** An integration of a case's own whose development tunnel (a loopback server of the case) renders a ContentKit block. */
const renderingIntegration = async (w: CaseWorld) => {
  const { createServer } = await import('node:http');
  const answer = JSON.stringify({ type: 'element', element: { type: 'block', children: [] }, state: {}, props: {} });
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer)));
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  CASE_SERVERS.add(server); // closed by the matrix's afterAll (closeCaseServers)
  const name = await publish(w, unique('case-render'));
  await w.owner('PUT', `/v1/integrations/${name}/dev`, { tunnelUrl: `http://127.0.0.1:${(server.address() as any).port}/` });
  await w.owner('POST', `/v1/integrations/${name}/installations`, { organization: w.ids.organizationId });
  return { integrationName: name };
};
const renderRequest = (w: CaseWorld) => ({
  componentId: 'configure',
  props: {},
  context: { type: 'configuration_account', theme: 'light', organizationId: w.ids.organizationId },
});

export const LEAST_ROLE: Record<string, Case> = {
  // A site's agent channels, external links, agent settings and feedback (docs/manual/site-agents.md).
  listSiteChannels: { as: 'read', setup: caseChannel, sees: lists('siteChannelId') },
  getSiteChannelById: { as: 'read', setup: caseChannel },
  createSiteChannel: {
    as: 'admin',
    setup: (w) => caseSite(w, true),
    body: () => ({ type: 'builtin:github', setupSettings: { allowedRepositories: ['acme/*'] } }),
  },
  updateSiteChannelById: { as: 'admin', setup: caseChannel, body: () => ({ role: 'collaborator' }) },
  deleteSiteChannelById: { as: 'admin', setup: caseChannel },
  addExternalLinkToSite: { as: 'admin', setup: (w) => caseSite(w), body: () => ({ title: 'Status', url: 'https://status.example.com' }) },
  updateSiteExternalLinkById: { as: 'admin', setup: caseLink, body: () => ({ title: 'Renamed link' }) },
  deleteSiteExternalLinkById: { as: 'admin', setup: caseLink },
  getSiteAgentSettingsById: { as: 'read' },
  updateSiteAgentSettingsById: {
    as: 'admin',
    body: () => ({
      scans: { topics: 'auto' },
      findings: { changeRequests: 'never' },
      editing: { customInstructions: { object: 'document', data: {}, nodes: [] } },
    }),
  },
  submitSiteAgentFeedback: {
    as: 'read',
    body: (w) => ({ feedback: 'Outdated', url: 'https://docs.example.com/intro', spaceId: w.ids.spaceId, pageId: w.ids.pageId }),
  },
  submitAgentFeedbackToSite: { as: 'read', body: () => ({ subject: { kind: 'generic' }, feedback: { category: 'usability', summary: 'Hard to find' } }) },
  duplicateSiteSpace: { as: 'admin', setup: (w) => caseSite(w), body: () => ({}) },
  applyTemplateToSite: { as: 'admin', setup: (w) => caseSite(w, true) },
  getSitePublishingAuthById: { as: 'admin' },
  listSiteMcpServers: { as: 'read', setup: async (w) => ({ siteMcpServerId: await newMcpServer(w) }), sees: lists('siteMcpServerId') },
  getSiteMcpServerById: { as: 'read', setup: async (w) => ({ siteMcpServerId: await newMcpServer(w) }) },
  createSiteMcpServer: {
    as: 'admin',
    body: () => ({ name: 'Made', url: `https://docs.example.com/mcp/m${Math.random().toString(36).slice(2, 10)}`, headers: {} }),
  },
  updateSiteMcpServerById: { as: 'admin', setup: async (w) => ({ siteMcpServerId: await newMcpServer(w) }), body: () => ({ name: 'Renamed' }) },
  deleteSiteMcpServerById: { as: 'admin', setup: async (w) => ({ siteMcpServerId: await newMcpServer(w) }) },
  getCustomHostname: { as: 'read', setup: async (w) => ({ hostname: await newHostname(w) }) },
  dnsRevalidateCustomHostname: { as: 'admin', setup: async (w) => ({ hostname: await newHostname(w) }) },
  removeCustomHostname: { as: 'admin', setup: async (w) => ({ hostname: await newHostname(w) }) },
  updateSitePublishingAuthById: { as: 'admin', body: () => ({ backend: 'custom', fallbackURL: 'https://auth.example.com/login' }) },
  regenerateSitePublishingAuthById: { as: 'admin' },
  listCustomFonts: { as: 'read', setup: async (w) => ({ fontId: await newFont(w) }), sees: lists('fontId') },
  getCustomFont: { as: 'read', setup: async (w) => ({ fontId: await newFont(w) }) },
  createCustomFont: {
    as: 'admin',
    setup: async (w) => ({ storageKey: await fontKey(w) }),
    body: (w) => ({ fontFamily: 'Made', fontFaces: [{ weight: 400, storageKey: w.ids.storageKey }] }),
  },
  updateCustomFont: { as: 'admin', setup: async (w) => ({ fontId: await newFont(w) }), body: () => ({ fontFamily: 'Renamed' }) },
  deleteCustomFont: { as: 'admin', setup: async (w) => ({ fontId: await newFont(w) }) },
  // users and organizations
  getAuthenticatedUser: { as: 'anyone' },
  createUserNotificationsToken: { as: 'anyone' },
  getUserById: { as: 'anyone' },
  listOrganizationsForAuthenticatedUser: { as: 'anyone' },
  getOrganizationById: { as: 'guest' },
  createOrganization: { as: 'anyone', body: () => ({ title: 'Made by a case' }) },
  updateOrganizationById: { as: 'admin', body: () => ({ title: 'World organization' }) },

  // collections
  getCollectionById: { as: 'read' },
  listSpacesInCollectionById: { as: 'read' },
  listCollectionsInOrganizationById: { as: 'read', sees: lists('collectionId') },
  createCollection: { as: 'create', body: () => ({ title: 'Case collection' }) },
  updateCollectionById: { as: 'admin', body: () => ({ title: 'World collection' }) },
  moveCollection: {
    as: 'admin',
    setup: async (w) => ({ target: w.ids.collectionId!, collectionId: (await w.owner('POST', `${org(w)}/collections`, { title: 'Moved' })).id }),
    body: (w) => ({ parent: w.ids.target }),
  },
  transferCollection: {
    as: 'admin',
    setup: async (w) => ({ collectionId: (await w.owner('POST', `${org(w)}/collections`, { title: 'Leaving' })).id, target: await newOrgWithBoth(w) }),
    body: (w) => ({ organization: w.ids.target }),
  },
  deleteCollectionById: { as: 'admin', setup: async (w) => ({ collectionId: (await w.owner('POST', `${org(w)}/collections`, { title: 'Doomed' })).id }) },

  // spaces
  getSpaceById: { as: 'read' },
  listSpacesInOrganizationById: { as: 'read', sees: lists('spaceId') },
  createSpace: { as: 'create', body: () => ({ title: 'Case space' }) },
  updateSpaceById: { as: 'admin', body: () => ({ title: 'World space' }) },
  duplicateSpace: { as: 'create' },
  restoreSpace: {
    as: 'admin',
    setup: async (w) => {
      const id = await newSpace(w, 'Restored');
      await w.owner('DELETE', `/v1/spaces/${id}`);
      return { spaceId: id };
    },
  },
  moveSpace: { as: 'admin', setup: async (w) => ({ spaceId: await newSpace(w, 'Moved') }), body: (w) => ({ parent: w.ids.collectionId }) },
  transferSpace: {
    as: 'admin',
    setup: async (w) => ({ spaceId: await newSpace(w, 'Leaving'), target: await newOrgWithBoth(w) }),
    body: (w) => ({ organization: w.ids.target }),
  },
  deleteSpaceById: { as: 'admin', setup: async (w) => ({ spaceId: await newSpace(w, 'Doomed') }) },

  // members
  listMembersInOrganizationById: { as: 'read' },
  getMemberInOrganizationById: { as: 'read' },
  updateMemberInOrganizationById: { as: 'admin', setup: async (w) => ({ userId: await w.newMember('read') }), body: () => ({ role: 'edit' }) },
  updateOrganizationMemberLastSeenAt: { as: 'guest' },
  setUserAsSSOMemberForOrganization: { as: 'admin', setup: async (w) => ({ userId: await w.newMember('read') }) },
  listTeamsForOrganizationMember: { as: 'read' },
  listSpacesForOrganizationMember: { as: 'read' },
  removeMemberFromOrganizationById: { as: 'admin', setup: async (w) => ({ userId: await w.newMember('read') }) },

  // invites
  inviteUsersToOrganization: { as: 'admin', body: () => ({ emails: [`${unique('newcomer')}@example.org`] }) },
  listOrganizationInviteLinks: { as: 'admin' },
  createOrganizationInvite: { as: 'admin', body: () => ({ role: 'read' }) },
  getOrganizationInviteLink: { as: 'anyone' },
  updateOrganizationInviteById: { as: 'admin', body: () => ({ role: 'comment' }) },
  joinOrganizationWithInvite: { as: 'anyone' },
  // Any user whose email the instance verified (an instance owner marks it; test/security/join-domain.test.ts).
  joinOrganization: {
    as: 'anyone',
    setup: async (w) => {
      await w.owner('PATCH', org(w), { emailDomains: ['example.com'] });
      expect((await w.s.docs('PATCH', `/_docs/users/${w.me}`, { body: { emailVerified: true } })).status).toBe(200);
      return {};
    },
  },
  deleteOrganizationInviteById: { as: 'admin', setup: async (w) => ({ inviteId: (await w.owner('POST', `${org(w)}/link-invites`, { role: 'read' })).id }) },

  // teams
  listTeamsInOrganizationById: { as: 'read' },
  createOrganizationTeam: { as: 'create', body: () => ({ title: unique('Case team') }) },
  getTeamInOrganizationById: { as: 'read' },
  updateTeamInOrganizationById: { as: 'admin', body: () => ({ title: 'World team' }) },
  listTeamMembersInOrganizationById: { as: 'read' },
  updateMembersInOrganizationTeam: { as: 'admin', setup: async (w) => ({ extra: await w.newMember('read') }), body: (w) => ({ add: [w.ids.extra] }) },
  addMemberToOrganizationTeamById: { as: 'admin', setup: async (w) => ({ userId: await w.newMember('read') }), body: () => ({}) },
  deleteMemberFromOrganizationTeamById: {
    as: 'admin',
    setup: async (w) => {
      const userId = await w.newMember('read');
      await w.owner('PUT', `${org(w)}/teams/${w.ids.teamId}/members/${userId}`, {});
      return { userId };
    },
  },
  removeTeamFromOrganizationById: {
    as: 'admin',
    setup: async (w) => ({ teamId: (await w.owner('PUT', `${org(w)}/teams`, { title: unique('Doomed team') })).id }),
  },

  // SAML and SSO
  listSAMLProvidersInOrganizationById: { as: 'admin' },
  createOrganizationSAMLProvider: { as: 'admin', body: () => ({ label: 'Case IdP' }) },
  getOrganizationSAMLProviderById: { as: 'admin' },
  updateOrganizationSAMLProvider: { as: 'admin', body: () => ({ label: 'World IdP' }) },
  listSSOProviderLoginsInOrganization: { as: 'guest' },
  deleteOrganizationSAMLProvider: {
    as: 'admin',
    setup: async (w) => ({ samlProviderId: (await w.owner('POST', `${org(w)}/saml`, { label: 'Doomed IdP' })).id }),
  },

  // the audit log (docs/manual/audit.md): the organization's admins only
  listOrganizationAuditEvents: { as: 'admin' },
  getOrganizationAuditEvent: { as: 'admin', setup: async (w) => ({ auditEventId: (await w.owner('GET', `${org(w)}/audit-events?limit=1`)).items[0].id }) },
  listOrganizationAuditEventActions: { as: 'admin' },

  // agent instructions
  getOrganizationAgentInstructions: { as: 'read' },
  updateOrganizationAgentInstructions: { as: 'admin', body: () => ({ instructions: { object: 'document', data: {}, nodes: [] } }) },

  // OpenAPI specs (the world's is private: guests list only public specs)
  listOpenAPISpecs: { as: 'guest' },
  getOpenAPISpecBySlug: { as: 'read' },
  listOpenAPISpecVersions: { as: 'read' },
  getLatestOpenAPISpecVersion: { as: 'read' },
  getLatestOpenAPISpecVersionContent: { as: 'read' },
  getLatestOpenAPISpecVersionContentRaw: { as: 'read' },
  getOpenAPISpecVersionById: { as: 'read' },
  getOpenAPISpecVersionContentById: { as: 'read' },
  createOpenAPISpec: { as: 'create', body: () => ({ slug: unique('case-spec'), source: { text: SPEC_TEXT } }) },
  createOrUpdateOpenAPISpecBySlug: { as: 'create', setup: async () => ({ specSlug: unique('put-spec') }), body: () => ({ source: { text: SPEC_TEXT } }) },
  updateOpenAPISpecBySlug: { as: 'create', body: () => ({ visibility: 'public' }) },
  deleteOpenAPISpecBySlug: {
    as: 'create',
    setup: async (w) => {
      const slug = unique('doomed-spec');
      await w.owner('PUT', `${org(w)}/openapi/${slug}`, { source: { text: SPEC_TEXT } });
      return { specSlug: slug };
    },
  },

  // integrations (the world's is private to its organization)
  listIntegrations: { as: 'anyone' },
  getIntegrationByName: { as: 'guest' },
  listIntegrationInstallations: { as: 'admin', sees: lists('installationId') },
  getIntegrationInstallationById: { as: 'admin' },
  listIntegrationSpaceInstallations: { as: 'admin', sees: (b) => b.count > 0 },
  listIntegrationSiteInstallations: { as: 'admin', sees: (b) => b.count > 0 },
  listIntegrationEvents: { as: 'admin' },
  getIntegrationEvent: { as: 'admin' },
  publishIntegration: { as: 'admin', body: (w) => integrationManifest(w.ids.organizationId!, { title: 'World tool v2' }) },
  installIntegration: {
    as: 'admin',
    setup: async (w) => ({ integrationName: await publish(w, unique('case-install')) }),
    body: (w) => ({ organization: w.ids.organizationId }),
  },
  updateIntegrationInstallation: { as: 'admin', body: () => ({ externalIds: ['team-42'] }) },
  setIntegrationDevelopmentMode: {
    as: 'admin',
    setup: async (w) => ({ integrationName: await publish(w, unique('case-dev')) }),
    body: () => ({ tunnelUrl: 'http://127.0.0.1:9/events' }),
  },
  disableIntegrationDevelopmentMode: {
    as: 'admin',
    setup: async (w) => {
      const name = await publish(w, unique('case-undev'));
      await w.owner('PUT', `/v1/integrations/${name}/dev`, { tunnelUrl: 'http://127.0.0.1:9/events' });
      return { integrationName: name };
    },
  },
  uninstallIntegration: {
    as: 'admin',
    setup: async (w) => {
      const name = await publish(w, unique('case-uninstall'));
      const i = await w.owner('POST', `/v1/integrations/${name}/installations`, { organization: w.ids.organizationId });
      return { integrationName: name, installationId: i.id };
    },
  },
  unpublishIntegration: { as: 'admin', setup: async (w) => ({ integrationName: await publish(w, unique('case-unpublish')) }) },
  createIntegrationInstallationToken: { as: 'admin' },
  listIntegrationInstallationSpaces: { as: 'admin', sees: (b) => b.count > 0 },
  getIntegrationSpaceInstallation: { as: 'admin' },
  updateIntegrationSpaceInstallation: { as: 'admin', body: () => ({ externalIds: ['repo-1'] }) },
  installIntegrationOnSpace: { as: 'admin', setup: (w) => ownInstallation(w), body: (w) => ({ space: w.ids.spaceId }) },
  uninstallIntegrationFromSpace: { as: 'admin', setup: (w) => ownInstallation(w, 'space') },
  listIntegrationInstallationSites: { as: 'admin', sees: (b) => b.count > 0 },
  getIntegrationSiteInstallation: { as: 'admin' },
  updateIntegrationSiteInstallation: { as: 'admin', body: () => ({ externalIds: ['web-1'] }) },
  installIntegrationOnSite: { as: 'admin', setup: (w) => ownInstallation(w), body: (w) => ({ siteId: w.ids.siteId }) },
  uninstallIntegrationFromSite: { as: 'admin', setup: (w) => ownInstallation(w, 'site') },
  listOrganizationIntegrations: { as: 'guest' },
  listOrganizationInstallations: { as: 'admin' },
  getOrganizationIntegrationStatus: { as: 'guest' },
  listSpaceIntegrations: { as: 'read' },
  listSiteIntegrations: { as: 'guest' },
  listOrganizationIntegrationsStatus: { as: 'guest', sees: (b) => b.count > 0 },
  listSiteIntegrationScripts: { as: 'guest' },
  listSpaceIntegrationsBlocks: { as: 'read' },
  queueIntegrationTask: { as: 'admin', body: () => ({ task: { type: 'case' } }) },
  renderIntegrationUIWithPost: { as: 'guest', setup: renderingIntegration, body: renderRequest },
  renderIntegrationUIWithGet: {
    as: 'guest',
    setup: renderingIntegration,
    query: (w) => ({ request: compressToEncodedURIComponent(JSON.stringify(renderRequest(w))) }),
  },
  generateStorageUploadURL: { as: 'create', body: () => ({ file: { name: 'site.zip', type: 'application/zip', size: 10 }, kind: 'import_file' }) },
  // This server never had GitBook's legacy Git Sync: the answer is always "already removed" (204).
  deleteLegacyGitInstallation: { as: 'admin', nothingToDelete: 'no space has a legacy Git installation on this server' },

  // conversations
  listConversations: { as: 'read' },
  getConversationById: { as: 'read' },
  listConversationsIssues: { as: 'read' },
  getConversationIssueById: { as: 'read' },
  listConversationsIssuesClusters: { as: 'read' },
  getConversationsIssuesCluster: { as: 'read' },
  ingestConversation: {
    as: 'admin',
    body: () => ({ id: unique('case-conversation'), parts: [{ type: 'message', role: 'user', body: 'Search finds nothing.' }] }),
  },

  // agents (src/agents): tasks follow the world's cluster; a conversation with the organization
  // agent is its creator's alone, so the case's caller provisions its own first.
  getAgentSetupState: { as: 'read' },
  listAgentTasks: { as: 'read', sees: lists('agentTaskId') },
  getAgentTask: { as: 'read' },
  updateAgentTask: { as: 'edit', body: () => ({ status: 'canceled' }) },
  listOrganizationAgentConversations: { as: 'read' },
  provisionOrganizationAgentConversation: { as: 'read', setup: async () => ({ conversationId: unique('case-agent') }) },
  updateOrganizationAgentConversation: { as: 'read', setup: agentConversation, body: () => ({ title: 'Release notes' }) },
  deleteOrganizationAgentConversation: { as: 'read', setup: agentConversation },

  // computed content (src/computed): the world's spec, computed in the world's space
  getComputedDocument: {
    as: 'read',
    body: (w) => ({
      seed: 's',
      source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: w.ids.specSlug } } }, props: { doc: 'models' } },
    }),
  },
  getComputedRevision: {
    as: 'read',
    body: (w) => ({
      seed: 's',
      source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: w.ids.specSlug } } }, props: { models: true } },
    }),
  },

  // translations
  listTranslations: { as: 'read' },
  getTranslation: { as: 'read' },
  createTranslation: { as: 'create', body: (w) => ({ language: 'de', source: { space: w.ids.spaceId, language: 'en' } }) },
  updateTranslation: { as: 'create', body: () => ({ instructions: { object: 'document', data: {}, nodes: [] } }) },
  runTranslation: { as: 'create' },
  deleteTranslation: {
    as: 'create',
    setup: async (w) => ({
      translationId: (await w.owner('POST', `${org(w)}/translations`, { language: 'es', source: { space: w.ids.spaceId, language: 'en' } })).id,
    }),
  },

  // permissions (src/permissions): lists for readers, changes for admins of the item; the role
  // given is `read` so that the case below (create) is refused for the admin level, not the role.
  listUserPermissionsInSpace: { as: 'read' },
  listTeamPermissionsInSpace: { as: 'read' },
  listPermissionsAggregateInSpace: { as: 'read' },
  inviteToSpace: { as: 'admin', setup: async (w) => ({ extra: await w.newMember(null) }), body: (w) => ({ role: 'read', users: [w.ids.extra] }) },
  updateUserPermissionInSpace: { as: 'admin', setup: async (w) => ({ userId: await w.newMember(null) }), body: () => ({ role: 'read' }) },
  updateTeamPermissionInSpace: { as: 'admin', body: () => ({ role: 'read' }) },
  listUserPermissionsInCollection: { as: 'read' },
  listTeamPermissionsInCollection: { as: 'read' },
  listPermissionsAggregateInCollection: { as: 'read' },
  inviteToCollection: { as: 'admin', setup: async (w) => ({ extra: await w.newMember(null) }), body: (w) => ({ role: 'read', teams: [w.ids.teamId] }) },
  updateUserPermissionInCollection: { as: 'admin', setup: async (w) => ({ userId: await w.newMember(null) }), body: () => ({ role: 'read' }) },
  updateTeamPermissionInCollection: { as: 'admin', body: () => ({ role: 'read' }) },
  listUserPermissionsInSite: { as: 'read' },
  listTeamPermissionsInSite: { as: 'read' },
  listPermissionsAggregateInSite: { as: 'read' },
  inviteToSite: { as: 'admin', setup: async (w) => ({ extra: await w.newMember(null) }), body: (w) => ({ role: 'read', users: [w.ids.extra] }) },
  updateUserPermissionInSite: { as: 'admin', setup: async (w) => ({ userId: await w.newMember(null) }), body: () => ({ role: 'read' }) },
  updateTeamPermissionInSite: { as: 'admin', body: () => ({ role: 'read' }) },
  // remove*From*: a grant given by the setup is taken away (205); the fixture's own grant each time.
  removeUserFromSpace: {
    as: 'admin',
    setup: async (w) => {
      const u = await w.newMember(null);
      await w.owner('PATCH', `/v1/spaces/${w.ids.spaceId}/permissions/users/${u}`, { role: 'read' });
      return { userId: u };
    },
  },
  removeTeamFromSpace: {
    as: 'admin',
    setup: async (w) => (await w.owner('PATCH', `/v1/spaces/${w.ids.spaceId}/permissions/teams/${w.ids.teamId}`, { role: 'read' }), {}),
  },
  removeUserFromCollection: {
    as: 'admin',
    setup: async (w) => {
      const u = await w.newMember(null);
      await w.owner('PATCH', `/v1/collections/${w.ids.collectionId}/permissions/users/${u}`, { role: 'read' });
      return { userId: u };
    },
  },
  removeTeamFromCollection: {
    as: 'admin',
    setup: async (w) => (await w.owner('PATCH', `/v1/collections/${w.ids.collectionId}/permissions/teams/${w.ids.teamId}`, { role: 'read' }), {}),
  },
  removeUserFromSite: {
    as: 'admin',
    setup: async (w) => {
      const u = await w.newMember(null);
      await w.owner('PATCH', `${site(w)}/permissions/users/${u}`, { role: 'read' });
      return { userId: u };
    },
  },
  removeTeamFromSite: { as: 'admin', setup: async (w) => (await w.owner('PATCH', `${site(w)}/permissions/teams/${w.ids.teamId}`, { role: 'read' }), {}) },

  // docs sites
  listSites: { as: 'read' },
  getSiteById: { as: 'read' },
  getSiteStructure: { as: 'read' },
  listSiteSections: { as: 'read' },
  listSiteSectionGroups: { as: 'read' },
  listSiteSpaces: { as: 'read' },
  getSiteAdaptiveSchema: {
    as: 'read',
    setup: async (w) => {
      await w.owner('PUT', `${site(w)}/adaptive-schema`, {
        jsonSchema: { type: 'object', properties: { pro: { type: 'boolean', description: 'Pro plan' } }, additionalProperties: false },
      });
      return {};
    },
  },
  listSiteAdaptiveTemplateConditions: { as: 'read' },
  getSiteCustomizationById: { as: 'read' },
  getSiteSpaceCustomizationById: { as: 'read' },
  getPublishedContentSite: {
    as: 'guest',
    setup: async (w) => {
      const id = (await w.owner('POST', `${org(w)}/sites`, { title: 'Published', spaces: [w.ids.spaceId] })).id;
      await w.owner('POST', `${org(w)}/sites/${id}/publish`);
      return { siteId: id };
    },
  },
  listSiteShareLinks: { as: 'admin' },
  createSite: { as: 'admin', body: () => ({ title: 'Case site' }) },
  updateSiteById: { as: 'admin', body: () => ({ title: 'World site' }) },
  // Ads (docs/manual/sites.md#ads): a site admin turns them off (nothing to turn off: a no-op);
  // the partner side needs this server's partner key, set for the case (the file's env is put back).
  updateSiteAdsById: { as: 'admin', body: () => ({ status: 'disabled' }) },
  adsListSites: { as: 'anyone', headers: () => partnerKey() },
  adsUpdateSite: {
    as: 'anyone',
    headers: () => partnerKey(),
    setup: async (w) => {
      await w.s.ctx.store.write((tx) =>
        tx.put(SiteAds, {
          id: w.ids.siteId!,
          organization: w.ids.organizationId!,
          status: 'in-review',
          topic: 'webdev',
          submittedBy: w.me,
          updatedAt: new Date().toISOString(),
        }),
      );
      return {};
    },
    body: () => ({ status: 'rejected', reason: 'A case' }),
  },
  publishSite: { as: 'admin' },
  // Published by its setup: a seeded sample (contract sweep) may not run publishSite before it.
  unpublishSite: { as: 'admin', setup: async (w) => (await w.s.api('POST', `/v1/orgs/${w.ids.organizationId}/sites/${w.ids.siteId}/publish`), {}) }, // 409 when already published: fine
  sortSiteStructure: { as: 'admin', body: (w) => ({ item: { type: 'site-section', id: w.ids.siteSectionId }, position: {} }) },
  addSectionToSite: { as: 'admin', body: (w) => ({ spaceId: w.ids.spaceId, title: unique('Section') }) },
  updateSiteSectionById: { as: 'admin', body: () => ({ title: 'Guides' }) },
  moveSiteSection: { as: 'admin', body: () => ({}) },
  addSectionGroupToSite: { as: 'admin', body: () => ({ title: unique('Group') }) },
  updateSiteSectionGroupById: { as: 'admin', body: () => ({ title: 'Products' }) },
  addSectionToGroup: { as: 'admin', body: (w) => ({ sectionId: w.ids.siteSectionId }) },
  moveSiteSectionGroup: { as: 'admin', body: () => ({}) },
  addSpaceToSite: {
    as: 'admin',
    setup: async (w) => ({ extraSpace: await newSpace(w, 'On the site') }),
    body: (w) => ({ spaceId: w.ids.extraSpace, sectionId: w.ids.siteSectionId }),
  },
  updateSiteSpaceById: { as: 'admin', body: () => ({ path: 'world' }) },
  moveSiteSpace: { as: 'admin', body: () => ({}) },
  updateSiteAdaptiveSchema: {
    as: 'admin',
    body: () => ({ jsonSchema: { type: 'object', properties: { pro: { type: 'boolean', description: 'Pro plan' } }, additionalProperties: false } }),
  },
  updateSiteCustomizationById: {
    as: 'admin',
    setup: async (w) => ({ current: JSON.stringify(await w.owner('GET', `${site(w)}/customization`)) }),
    body: (w) => JSON.parse(w.ids.current!),
  },
  overrideSiteSpaceCustomizationById: { as: 'admin', body: () => ({ styling: { theme: 'bold' } }) },
  createSiteShareLink: { as: 'admin', body: () => ({ name: 'Case link' }) },
  updateSiteShareLinkById: { as: 'admin', body: () => ({ active: false }) },
  // Its own override first: a seeded sample may not run overrideSiteSpaceCustomizationById before it.
  deleteSiteSpaceCustomizationById: {
    as: 'admin',
    setup: async (w) => (await w.owner('PATCH', `${site(w)}/site-spaces/${w.ids.siteSpaceId}/customization`, { styling: { theme: 'bold' } }), {}),
  },
  // The translation glossary (docs/manual/translations.md#glossary): members read it, create changes it.
  listGlossaryEntries: { as: 'read' },
  getGlossaryEntry: {
    as: 'read',
    setup: async (w) => {
      await w.owner('PUT', `/v1/orgs/${w.ids.organizationId}/translations-glossary`, {
        operations: [{ type: 'insert', translations: { en: `term-${Math.random().toString(36).slice(2)}` } }],
      });
      const items = (await w.owner('GET', `/v1/orgs/${w.ids.organizationId}/translations-glossary?limit=1000`)).items;
      return { glossaryEntryId: items.at(-1).id };
    },
  },
  updateGlossaryEntries: { as: 'create', body: () => ({ operations: [{ type: 'insert', translations: { en: 'Widget', fr: 'Gadget' } }] }) },
  // Site insights (docs/manual/insights.md): any member who sees the site records and reads them.
  trackEventsInSiteById: {
    as: 'read',
    body: (w) => ({
      events: [
        {
          type: 'page_view',
          session: { visitorId: 'v', sessionId: 's', cookies: {}, userAgent: 'test', language: null, referrer: null },
          location: {
            url: 'https://docs.example/',
            siteSection: null,
            siteSpace: w.ids.siteSpaceId!,
            siteShareKey: null,
            space: null,
            revision: null,
            page: null,
          },
        },
      ],
    }),
  },
  aggregateSiteEvents: { as: 'read', body: () => ({ range: 'last7Days', groupBy: [{ column: 'eventType' }] }) },
  listSiteVisitorSegments: { as: 'read' },
  // Site redirects: each case makes its own (a source is unique per site).
  listSiteRedirects: { as: 'read' },
  createSiteRedirect: {
    as: 'admin',
    body: (w) => ({ source: `/case-${Math.random().toString(36).slice(2)}`, destination: { kind: 'site-space', siteSpaceId: w.ids.siteSpaceId } }),
  },
  bulkUpsertSiteRedirects: {
    as: 'admin',
    body: (w) => ({
      redirects: [{ source: `/bulk-${Math.random().toString(36).slice(2)}`, destination: { kind: 'site-space', siteSpaceId: w.ids.siteSpaceId } }],
    }),
  },
  getSiteRedirectBySource: {
    as: 'read',
    setup: async (w) => ({
      source: (
        await w.owner('POST', `${site(w)}/redirects`, {
          source: `/get-${Math.random().toString(36).slice(2)}`,
          destination: { kind: 'site-space', siteSpaceId: w.ids.siteSpaceId },
        })
      ).source,
    }),
    query: (w) => ({ source: w.ids.source! }),
  },
  updateSiteRedirectById: {
    as: 'admin',
    setup: async (w) => ({
      siteRedirectId: (
        await w.owner('POST', `${site(w)}/redirects`, {
          source: `/up-${Math.random().toString(36).slice(2)}`,
          destination: { kind: 'site-space', siteSpaceId: w.ids.siteSpaceId },
        })
      ).id,
    }),
    body: () => ({ permanent: true }),
  },
  deleteSiteRedirectById: {
    as: 'admin',
    setup: async (w) => ({
      siteRedirectId: (
        await w.owner('POST', `${site(w)}/redirects`, {
          source: `/del-${Math.random().toString(36).slice(2)}`,
          destination: { kind: 'site-space', siteSpaceId: w.ids.siteSpaceId },
        })
      ).id,
    }),
  },
  deleteSiteShareLinkById: { as: 'admin', setup: async (w) => ({ shareLinkId: (await w.owner('POST', `${site(w)}/share-links`, { name: 'Doomed' })).id }) },
  deleteSiteSpaceById: {
    as: 'admin',
    setup: async (w) => ({
      siteSpaceId: (await w.owner('POST', `${site(w)}/site-spaces`, { spaceId: await newSpace(w, 'Doomed on site'), sectionId: w.ids.siteSectionId })).id,
    }),
  },
  removeSectionFromGroup: {
    as: 'admin',
    setup: async (w) => {
      const sec = (await w.owner('POST', `${site(w)}/sections`, { spaceId: w.ids.spaceId, title: unique('Grouped') })).id;
      await w.owner('POST', `${site(w)}/section-groups/${w.ids.siteSectionGroupId}/sections`, { sectionId: sec });
      return { siteSectionId: sec };
    },
  },
  deleteSiteSectionById: {
    as: 'admin',
    setup: async (w) => ({ siteSectionId: (await w.owner('POST', `${site(w)}/sections`, { spaceId: w.ids.spaceId, title: unique('Doomed section') })).id }),
  },
  deleteSiteSectionGroupById: {
    as: 'admin',
    setup: async (w) => ({ siteSectionGroupId: (await w.owner('POST', `${site(w)}/section-groups`, { title: unique('Doomed group') })).id }),
  },
  deleteSiteById: { as: 'admin', setup: async (w) => ({ siteId: (await w.owner('POST', `${org(w)}/sites`, { title: 'Doomed site' })).id }) },

  getApiInformation: { as: 'anyone' },
  // URLs of this server's app and embeds (src/urls/operations.ts)
  getContentByUrl: { as: 'read', query: (w) => ({ url: `${w.s.url}/o/${w.ids.organizationId}/s/${w.ids.spaceId}` }) },
  // A public published site's URL: any authenticated caller looks it up (its visitors could all see it).
  getPublishedContentByUrl: { as: 'anyone', setup: async (w) => ({ publishedUrl: await publishedSite(w) }), query: (w) => ({ url: w.ids.publishedUrl! }) },
  resolvePublishedContentByUrl: { as: 'anyone', setup: async (w) => ({ publishedUrl: await publishedSite(w) }), body: (w) => ({ url: w.ids.publishedUrl }) },
  searchSiteContent: { as: 'read', body: () => ({ query: 'install', scope: { mode: 'all' } }) },
  prewarmSiteSearch: { as: 'read' },
  getSitePublishingPreviewById: { as: 'read' },
  getEmbedByUrl: { as: 'anyone', query: () => ({ url: 'https://example.com/guide' }) },
  getEmbedByUrlInSpace: { as: 'read', query: () => ({ url: 'https://example.com/guide' }) },
  // A profile is changed by its user (or an instance owner): the caller changes their own.
  updateUserById: { as: 'anyone', setup: async (w) => ({ userId: w.me }), body: () => ({ displayName: 'Renamed by a case' }) },
  getSubdomain: {
    as: 'guest',
    setup: async (w) => {
      await w.owner('PATCH', org(w), { hostname: 'world-docs' });
      return { subdomain: 'world-docs' };
    },
  },
  // Any domain for an instance owner; for others, the domain of their own verified address
  // (test users are <id>@example.com): the caller is verified, the organization admits example.com.
  getOrganizationsForEmailDomain: {
    as: 'anyone',
    setup: async (w) => {
      await w.s.ctx.store.write((tx) => tx.put(Users, { ...tx.get(Users, w.me)!, emailVerified: true }));
      return { emailDomain: 'example.com' };
    },
    sees: (b, _w) => Array.isArray(b.organizations),
  },
  // AI usage: admins only (the contract); the last week, by day.
  getOrganizationAIUsage: { as: 'admin', query: () => ({ from: new Date(Date.now() - 7 * 86_400_000).toISOString(), to: new Date().toISOString() }) },

  // space content
  getCurrentRevision: { as: 'read' },
  getRevisionById: { as: 'read' },
  listPages: { as: 'read' },
  getPageById: { as: 'read' },
  getPageByPath: { as: 'read' },
  listPagesInRevisionById: { as: 'read' },
  getPageInRevisionById: { as: 'read' },
  getPageInRevisionByPath: { as: 'read' },
  getPageDocumentInRevisionById: { as: 'read' },
  getRevisionSemanticChanges: { as: 'read' },
  getDocumentById: {
    as: 'read',
    setup: async (w) => ({ documentId: (await w.owner('GET', `/v1/spaces/${w.ids.spaceId}/content/page/${w.ids.pageId}`)).documentId }),
  },
  listFilesInRevisionById: { as: 'read' },
  getReusableContentById: { as: 'read', setup: (w) => reusableBlock(w, true) },
  getReusableContentInRevisionById: { as: 'read', setup: (w) => reusableBlock(w, true) },
  getReusableContentDocumentInRevisionById: { as: 'read', setup: (w) => reusableBlock(w, true) },
  getReusableContentInChangeRequestById: { as: 'read', setup: (w) => reusableBlock(w, false) },
  getFileInRevisionById: { as: 'read' },
  listFiles: { as: 'read' },
  getFileById: { as: 'read' },
  searchSpaceContent: { as: 'read', query: () => ({ query: 'install' }) },
  searchOrganizationContent: { as: 'read', query: () => ({ query: 'install' }), sees: (b, w) => b.items.some((x: any) => x.id === w.ids.spaceId) },
  // ask (docs/manual/ask.md): a member with no role may ask, and is answered from nothing; the least
  // role that reads the world's space is quoted from it. Streamed answers arrive as their list of events.
  askInOrganization: { as: 'read', body: () => ({ query: 'install' }), sees: (b, w) => b.answer.sources.some((x: any) => x.space === w.ids.spaceId) },
  streamAskInOrganization: {
    as: 'read',
    query: () => ({ query: 'install' }),
    sees: (b, w) => b.at(-1).answer.sources.some((x: any) => x.space === w.ids.spaceId),
  },
  getRecommendedQuestionsInOrganization: { as: 'read', sees: (b) => b.questions.includes('What is Intro?') },
  streamRecommendedQuestionsInOrganization: { as: 'read', sees: (b) => b.some((e: any) => e.question === 'What is Intro?') },
  streamAskInSite: { as: 'read', body: () => ({ question: 'install', scope: { mode: 'all' } }) },
  streamRecommendedQuestionsInSite: { as: 'read' },
  streamAIResponseInSite: { as: 'read', body: () => ({ input: [{ role: 'user', content: 'install' }] }) },
  streamExistingAIResponseInSite: {
    as: 'read',
    setup: async (w) => ({
      responseId: (await w.owner('POST', `${site(w)}/ai/response`, { input: [{ role: 'user', content: 'install' }] })).at(-1).responseId,
    }),
  },
  // Site questions (docs/manual/ask.md#site-questions-and-answers): any member who sees the site reads them, as its insights.
  listSiteQuestions: { as: 'read', setup: async (w) => ({ siteQuestionId: await siteQuestion(w) }), sees: lists('siteQuestionId') },
  getSiteQuestionById: { as: 'read', setup: async (w) => ({ siteQuestionId: await siteQuestion(w) }) },
  listSiteQuestionSources: { as: 'read', setup: async (w) => ({ siteQuestionId: await siteQuestion(w) }) },
  getSiteQuestionStats: { as: 'read', setup: async (w) => ({ siteQuestionId: await siteQuestion(w) }), sees: (b) => b.total > 0 },
  listSiteQuestionAnswers: { as: 'read', setup: async (w) => ({ siteQuestionAnswerId: await siteAnswer(w) }), sees: lists('siteQuestionAnswerId') },
  getSiteQuestionAnswerById: { as: 'read', setup: async (w) => ({ siteQuestionAnswerId: await siteAnswer(w) }) },
  getSiteQuestionAnswerThreadById: { as: 'read', setup: async (w) => ({ siteQuestionAnswerId: await siteAnswer(w) }) },
  listSiteQuestionAnswerSources: { as: 'read', setup: async (w) => ({ siteQuestionAnswerId: await siteAnswer(w) }) },
  // Style guides (docs/manual/styleguides.md): site admins make one; a run opens change requests (edit on the spaces checked).
  createSiteStyleguideById: { as: 'admin', body: () => ({ template: 'plain-language' }) },
  createSiteStyleguideRun: {
    as: 'edit',
    setup: async (w) => (await w.owner('POST', `${site(w)}/styleguide`, {}), {}),
    body: (w) => ({ spaces: [w.ids.spaceId!] }),
  },
  listSiteStyleguideRuns: { as: 'read' },
  // Site findings (docs/manual/site-findings.md): reads with the site, changes with edit on it.
  listSiteScans: { as: 'read', setup: siteFinding, sees: lists('siteScanId') },
  getSiteScanById: { as: 'read', setup: siteFinding },
  listSiteFindings: { as: 'read', setup: siteFinding, sees: lists('siteFindingId') },
  getSiteFindingById: { as: 'read', setup: siteFinding },
  getSiteFindingStats: { as: 'read', setup: siteFinding, sees: (b) => b.total > 0 },
  listChangeRequestsForSiteFinding: { as: 'read', setup: siteFinding },
  listPagesForSiteFinding: { as: 'read', setup: siteFinding },
  listQuestionsForSiteFinding: { as: 'read', setup: siteFinding },
  listRecordsForSiteFinding: { as: 'read', setup: siteFinding },
  listSiteTopics: { as: 'read', setup: siteFinding, sees: (b, w) => b.items.some((t: any) => t.id === w.ids.siteTopicId) },
  getSiteTopicById: { as: 'read', setup: siteFinding },
  triggerChangeRequestsForSiteFinding: { as: 'edit', setup: siteFinding },
  updateSiteFindingById: { as: 'edit', setup: siteFinding, body: () => ({ status: 'open' }) },
  updateSiteTopicById: { as: 'edit', setup: siteFinding, body: () => ({ usageSettings: { changeRequests: false } }) },
  deleteSiteTopicFindings: { as: 'edit', setup: siteFinding },
  listStyleguideTemplates: { as: 'read' },
  listOrganizationStyleguides: { as: 'read' },
  // A site's context connections and records (docs/manual/site-context.md#connections-and-records): members who see the site read them, its admins change them.
  listSiteContextConnections: { as: 'read', setup: caseContext, sees: lists('siteContextConnectionId') },
  getSiteContextConnectionById: { as: 'read', setup: caseContext },
  createSiteContextConnection: {
    as: 'admin',
    setup: (w) => caseSite(w, true),
    body: () => ({ connector: 'builtin:website', setupSettings: { url: 'https://help.example.com/' } }),
  },
  updateSiteContextConnectionById: { as: 'admin', setup: caseContext, body: () => ({ label: 'Case label' }) },
  deleteSiteContextConnectionById: { as: 'admin', setup: caseContext },
  syncSiteContextConnection: { as: 'admin', setup: caseContext },
  testSiteContextConnection: { as: 'admin', setup: caseContext },
  listSiteContextRecords: { as: 'read', setup: caseContext, sees: lists('siteContextRecordId') },
  upsertSiteContextRecords: { as: 'admin', setup: caseContext, body: () => [{ id: 'case-2', type: 'document', title: 'Case document', body: 'Doc.' }] },
  getSiteContextRecordById: { as: 'read', setup: caseContext },
  // The agent's conversations in a change request (docs/manual/agents.md#change-request-conversations):
  // shared with its readers, renamed and deleted with edit on the space.
  listChangeRequestConversations: { as: 'read', setup: crConversation, sees: (b) => b.items.some((c: any) => c.id === 'default') },
  updateChangeRequestConversation: { as: 'edit', setup: crConversation, body: () => ({ title: 'Style pass' }) },
  deleteChangeRequestConversation: { as: 'edit', setup: crConversation },
  listSpaceLinks: { as: 'read' },
  listPageLinksInSpace: { as: 'read' },
  listSpaceFileBacklinks: { as: 'read' },
  listSpacePageBacklinks: { as: 'read' },
  listSpacePageMetaLinks: { as: 'read' },
  listRevisionPageMetaLinks: { as: 'read' },
  getRevisionOfChangeRequestById: { as: 'read' },
  listPagesInChangeRequest: { as: 'read' },
  listFilesInChangeRequestById: { as: 'read' },
  getPageInChangeRequestById: { as: 'read' },
  getPageInChangeRequestByPath: { as: 'read' },
  getFileInChangeRequestById: { as: 'read' },
  listPageLinksInChangeRequest: { as: 'read' },
  listChangeRequestLinks: { as: 'read' },
  listChangeRequestPageBacklinks: { as: 'read' },
  listChangeRequestPageMetaLinks: { as: 'read' },
  listChangeRequestFileBacklinks: { as: 'read' },
  updateChangeRequestContent: {
    as: 'edit',
    query: () => ({ compat: 'false' }),
    body: () => ({ changes: [{ operation: 'insert_page', title: unique('By a case'), document: { markdown: 'Written by a case.' } }] }),
  },
  applyTemplateToSpace: { as: 'edit', setup: async (w) => ({ spaceId: await newSpace(w, 'Templated') }), body: () => ({ id: 'getting-started' }) },

  // change requests
  getChangeRequestById: { as: 'read' },
  listChangeRequestsForSpace: { as: 'read' },
  listChangeRequestsForOrganization: { as: 'read', sees: lists('changeRequestId') },
  createChangeRequest: { as: 'edit', body: () => ({ subject: 'By a case' }) },
  // Its creator may change it at any level; anyone else needs edit (a fresh caller is not the creator).
  updateChangeRequestById: { as: 'edit', body: () => ({ subject: 'Open change, edited' }) },
  updateChangeRequest: { as: 'edit' },
  mergeChangeRequest: {
    as: 'review',
    setup: async (w) => {
      const spaceId = await newSpace(w, 'Merged into');
      const cr = await w.owner('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'To merge' });
      await w.owner('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title: 'Merged', document: { markdown: 'x' } }],
      });
      return { spaceId, changeRequestId: cr.id };
    },
  },

  // reviews, review requests, semantic changes, contributors
  // A change request of its own that creates a page: the pinned schema cannot be met by any
  // `page_edited` change (docs/manual/reviews.md: its attributes' oneOf overlaps), and
  // s.api checks answers against it as it is.
  getChangeRequestChanges: {
    as: 'read',
    setup: async (w) => {
      const made = await w.owner('POST', `${sp(w)}/change-requests`, { subject: 'Adds a page' });
      await w.owner('POST', `${sp(w)}/change-requests/${made.id}/content?compat=false`, {
        changes: [{ operation: 'insert_page', title: unique('Added'), document: { markdown: 'New.' } }],
      });
      return { changeRequestId: made.id };
    },
  },
  getReviewsByChangeRequestId: { as: 'read' },
  getChangeRequestReviewById: { as: 'read' },
  getRequestedReviewersByChangeRequestId: { as: 'read' },
  getContributorsByChangeRequestId: { as: 'read' },
  submitChangeRequestReview: { as: 'review', body: () => ({ status: 'approved', comment: { markdown: 'Fine.' } }) },
  // Authors ask for reviews (edit); who is asked must be able to review (review).
  requestReviewersForChangeRequest: { as: 'edit', setup: async (w) => ({ asked: await w.newMember('review') }), body: (w) => ({ users: [w.ids.asked] }) },
  removeRequestedReviewerFromChangeRequest: { as: 'edit', setup: requested },

  // PDF export
  getSpacePDF: { as: 'read' },
  getChangeRequestPDF: { as: 'read' },

  // comments: reading needs read, discussing needs comment; deleting another's post needs admin
  // (its author may delete it at the comment level, but a case's caller is never the author).
  listCommentsInSpace: { as: 'read', sees: lists('commentId') },
  getCommentInSpace: { as: 'read' },
  listCommentRepliesInSpace: { as: 'read' },
  getCommentReplyInSpace: { as: 'read' },
  listCommentersInSpace: { as: 'read' },
  postCommentInSpace: { as: 'comment', body: () => post },
  updateCommentInSpace: { as: 'comment', body: () => react },
  postCommentReplyInSpace: { as: 'comment', body: () => post },
  updateCommentReplyInSpace: { as: 'comment', body: () => react },
  deleteCommentInSpace: { as: 'admin', setup: async (w) => ({ commentId: (await w.owner('POST', `${sp(w)}/comments`, { body: { markdown: 'Doomed' } })).id }) },
  deleteCommentReplyInSpace: {
    as: 'admin',
    setup: async (w) => ({ commentReplyId: (await w.owner('POST', `${sp(w)}/comments/${w.ids.commentId}/replies`, { body: { markdown: 'Doomed' } })).id }),
  },
  listCommentsInChangeRequest: { as: 'read', sees: lists('crCommentId') },
  getCommentInChangeRequest: { as: 'read', setup: crComment },
  listCommentRepliesInChangeRequest: { as: 'read', setup: crComment },
  getCommentReplyInChangeRequest: { as: 'read', setup: crComment },
  listCommentersInChangeRequest: { as: 'read' },
  postCommentInChangeRequest: { as: 'comment', body: () => post },
  updateCommentInChangeRequest: { as: 'comment', setup: crComment, body: () => react },
  postCommentReplyInChangeRequest: { as: 'comment', setup: crComment, body: () => post },
  updateCommentReplyInChangeRequest: { as: 'comment', setup: crComment, body: () => react },
  deleteCommentInChangeRequest: {
    as: 'admin',
    setup: async (w) => ({ commentId: (await w.owner('POST', `${cr(w)}/comments`, { body: { markdown: 'Doomed' } })).id }),
  },
  deleteCommentReplyInChangeRequest: {
    as: 'admin',
    setup: async (w) => ({
      commentId: w.ids.crCommentId!,
      commentReplyId: (await w.owner('POST', `${cr(w)}/comments/${w.ids.crCommentId}/replies`, { body: { markdown: 'Doomed' } })).id,
    }),
  },
  // imports and git (docs/manual/imports-and-git.md): each case makes its own space and file.
  startImportRun: {
    as: 'edit',
    setup: importFile,
    body: (w) => ({ source: { type: 'file', files: [w.ids.fileKey] }, target: { space: w.ids.importSpace, changeRequest: w.ids.importCr } }),
  },
  listImportRuns: { as: 'guest' },
  getImportRun: {
    as: 'read',
    setup: async (w) => {
      const ids = await importFile(w);
      const run = await w.owner('POST', `/v1/org/${w.ids.organizationId}/imports`, {
        source: { type: 'file', files: [ids.fileKey] },
        target: { space: ids.importSpace, changeRequest: ids.importCr },
      });
      return { importRunId: run.id };
    },
  },
  // A run that stays in progress: a loopback server that never answers (closed a few seconds later).
  cancelImportRun: {
    as: 'edit',
    setup: async (w) => {
      const { createServer } = await import('node:http');
      const hang = createServer(() => {}).listen(0, '127.0.0.1');
      await new Promise((r) => hang.once('listening', r));
      // Closed when the run is cancelled, or by the matrix's afterAll at the latest (closeCaseServers).
      CASE_SERVERS.add(hang);
      process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
      try {
        const space = await newSpace(w, 'Import target');
        const path = `/v1/org/${w.ids.organizationId}/imports`;
        const run = await w.owner('POST', path, {
          source: { type: 'website', url: `http://127.0.0.1:${(hang.address() as any).port}/x.zip` },
          target: { space },
        });
        for (let i = 0; i < 100 && (await w.owner('GET', `${path}/${run.id}`)).status !== 'in-progress'; i++) await new Promise((r) => setTimeout(r, 10));
        return { importRunId: run.id };
      } finally {
        delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
      }
    },
  },
  importGitRepository: {
    as: 'edit',
    setup: async (w) => ({ spaceId: await newSpace(w, 'From Git'), ...(await gitRepo()) }),
    body: (w) => ({ url: w.ids.repo, ref: 'refs/heads/main' }),
  },
  exportToGitRepository: {
    as: 'edit',
    setup: async (w) => ({ spaceId: await newSpace(w, 'To Git'), ...(await gitRepo()) }),
    body: (w) => ({ url: w.ids.repo, ref: 'refs/heads/docs', commitMessage: 'Export' }),
  },
  getSpaceGitInfo: {
    as: 'read',
    setup: async (w) => {
      const spaceId = await newSpace(w, 'Synced');
      const { repo } = await gitRepo();
      await w.owner('POST', `/v1/spaces/${spaceId}/git/import`, { url: repo, ref: 'refs/heads/main' });
      return { spaceId };
    },
  },
  // Git Sync installations (docs/manual/imports-and-git.md#git-sync-installations): seeing the
  // target shows its installation; the rest needs admin on it.
  installGitSyncProviderOnTarget: {
    as: 'admin',
    setup: async (w) => ({ spaceId: await newSpace(w, 'Git Sync target') }),
    body: (w) => ({ provider: 'github', target: { type: 'space', spaceId: w.ids.spaceId } }),
  },
  getGitSyncInstallationById: { as: 'read', setup: (w) => gitInstallation(w, 'github') },
  updateGitSyncInstallationById: {
    as: 'admin',
    setup: (w) => gitInstallation(w, 'github'),
    body: () => ({ provider: 'github', providerConfiguration: { repositoryId: GIT_REPO_ID, branch: 'refs/heads/main' } }),
  },
  uninstallGitSyncInstallation: { as: 'admin', setup: (w) => gitInstallation(w, 'github') },
  listGitHubRepositoriesForGitSyncInstallation: { as: 'admin', setup: (w) => gitInstallation(w, 'github') },
  listGitHubRepoBranchesForGitSyncInstallation: { as: 'admin', setup: (w) => gitInstallation(w, 'github') },
  getGitHubRepoFileForGitSyncInstallation: {
    as: 'admin',
    setup: (w) => gitInstallation(w, 'github'),
    query: () => ({ path: 'README.md', ref: 'refs/heads/main' }),
  },
  listGitLabProjectsForGitSyncInstallation: { as: 'admin', setup: (w) => gitInstallation(w, 'gitlab') },
  listGitLabProjectBranchesForGitSyncInstallation: { as: 'admin', setup: (w) => gitInstallation(w, 'gitlab') },
  getGitLabProjectFileForGitSyncInstallation: {
    as: 'admin',
    setup: (w) => gitInstallation(w, 'gitlab'),
    query: () => ({ path: 'README.md', ref: 'refs/heads/main' }),
  },
  listSiteGitSyncInstallations: {
    as: 'read',
    setup: async (w) => {
      const inst = await w.owner('POST', '/v1/git/installations', { provider: 'github', target: { type: 'site', siteId: w.ids.siteId } });
      return { gitInstallationId: inst.id as string };
    },
    sees: (b, w) => b.items.some((x: any) => x.id === w.ids.gitInstallationId),
  },
};

/** `repo` of gitRepo(): directly under the root, so `_/repo` (src/git/local-repos.ts). */
const GIT_REPO_ID = repoId('_/repo');

/** A Git Sync installation on a space of its own, with the repository of gitRepo() to list. */
async function gitInstallation(w: CaseWorld, provider: 'github' | 'gitlab'): Promise<Record<string, string>> {
  await gitRepo();
  const spaceId = await newSpace(w, 'Git Sync');
  const inst = await w.owner('POST', '/v1/git/installations', { provider, target: { type: 'space', spaceId } });
  return { spaceId, installationId: inst.id, accountName: '_', repositoryName: 'repo', projectId: String(GIT_REPO_ID) };
}

/** A repository (made with isomorphic-git) under a Git root the server is given (DOCS_GIT_ROOT, put back after the file). */
async function gitRepo(): Promise<{ repo: string }> {
  const fs = await import('node:fs');
  const { join } = await import('node:path');
  const git = (await import('isomorphic-git')).default;
  const { tempDir } = await import('../helpers/server.js');
  const root = tempDir('docs-git-root-');
  process.env.DOCS_GIT_ROOT = root;
  const dir = join(root, 'repo');
  fs.mkdirSync(dir);
  await git.init({ fs, dir, defaultBranch: 'main' });
  fs.writeFileSync(join(dir, 'README.md'), '# Home\n');
  await git.add({ fs, dir, filepath: 'README.md' });
  await git.commit({ fs, dir, message: 'Docs', author: { name: 'T', email: 't@example.com' } });
  return { repo: 'repo' };
}

/** A space, a change request of it and a markdown file uploaded there: an import's source. */
async function importFile(w: CaseWorld): Promise<Record<string, string>> {
  const importSpace = await newSpace(w, 'Import target');
  const importCr = (await w.owner('POST', `/v1/spaces/${importSpace}/change-requests`, { subject: 'Upload' })).id as string;
  const up = await w.owner('POST', `/v1/spaces/${importSpace}/change-requests/${importCr}/content?compat=false`, {
    changes: [
      { operation: 'insert_files', files: [{ name: 'page.md', contentType: 'text/markdown', base64: Buffer.from('# Imported\n\nHi.\n').toString('base64') }] },
    ],
  });
  return { importSpace, importCr, spaceId: importSpace, fileKey: up.insertedFiles[0].id };
}

/** From least to most: who is just below whom. */
export const LADDER: Who[] = ['anyone', 'guest', ...[...ROLES].reverse()];
const below = (who: Who): Who | undefined => LADDER[LADDER.indexOf(who) - 1];

/** The call a case makes: its request, and the two callers (with the least role, and the role below). */
export interface CaseCall {
  method: string;
  url: string;
  body: unknown;
  headers?: Record<string, string>;
  me: { userId: string; token: string };
  lesser?: { userId: string; token: string };
  lowerWho?: Who;
  w: CaseWorld;
}

/**
 * Prepares one operation's case on `world` (the two callers, the setup's fixtures, the URL with
 * real ids): shared by the authorization matrix and the contract sweep (contract-sweep.test.ts).
 * Throws when the setup fails.
 */
export async function prepareCase(s: TestServer, world: World, operationId: string, opts: { lesser?: boolean } = {}): Promise<CaseCall> {
  const [method, template] = routeOf(operationId);
  const c = LEAST_ROLE[operationId]!;
  const o = world.ids.organizationId!;
  const caller = async (who: Who) => (who === 'anyone' ? addUser(s.ctx) : addUser(s.ctx, o, who === 'guest' ? null : who));
  const me = await caller(c.as);
  const lowerWho = opts.lesser === false ? undefined : below(c.as);
  const lesser = lowerWho ? await caller(lowerWho) : undefined;
  const w: CaseWorld = {
    ...world,
    ids: { ...world.ids },
    me: me.userId,
    lesser: lesser?.userId,
    member: (og, user, role) => addMember(s.ctx, og, user, role),
    newMember: async (role) => (await addUser(s.ctx, o, role)).userId,
    asMe: async (method, path, body) => (await s.api(method, path, { token: me.token, body })).status,
  };
  Object.assign(w.ids, await c.setup?.(w));
  const query = c.query?.(w);
  const url =
    '/v1' +
    template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(w.ids[name] ?? `no-${name}-in-world`)) +
    (query ? `?${new URLSearchParams(query)}` : '');
  return { method, url, body: c.body?.(w), ...(c.headers ? { headers: c.headers(w) } : {}), me, lesser, lowerWho, w };
}

let routeIndex: Map<string, readonly [string, string]> | undefined;
export function routeOf(operationId: string): readonly [string, string] {
  routeIndex ??= new Map(contractRoutes().map(([m, p, id]) => [id, [m, p] as const]));
  return routeIndex.get(operationId)!;
}

/** Every operation with a case, GETs first, then other writes, then DELETEs, each in table order. */
export function caseOrder(ids: readonly string[]): string[] {
  const rank = (id: string) => ({ GET: 0, DELETE: 2 })[routeOf(id)[0]] ?? 1;
  return ids.filter((id) => LEAST_ROLE[id]).sort((a, b) => rank(a) - rank(b));
}
