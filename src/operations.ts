import type { Operation } from './kernel/operation.js';
import * as agentInstructions from './agent-instructions/operations.js';
import * as changeRequests from './change-requests/operations.js';
import * as collections from './collections/operations.js';
import * as content from './content/operations.js';
import * as invites from './invites/operations.js';
import * as members from './members/operations.js';
import * as openapi from './openapi/operations.js';
import * as organizations from './organizations/operations.js';
import * as saml from './saml/operations.js';
import * as spaces from './spaces/operations.js';
import * as teams from './teams/operations.js';
import * as users from './users/operations.js';

// Every operation this project serves, by area. The HTTP router, the CLI transports and the
// served-operations snapshot test all read this one list.
export const OPERATIONS: Operation[] = [
  // Users
  users.getAuthenticatedUser,
  users.getUserById,
  // Organizations
  organizations.listOrganizationsForAuthenticatedUser,
  organizations.getOrganizationById,
  organizations.createOrganization,
  organizations.updateOrganizationById,
  // Collections
  collections.getCollectionById,
  collections.deleteCollectionById,
  collections.updateCollectionById,
  collections.listSpacesInCollectionById,
  collections.moveCollection,
  collections.transferCollection,
  collections.listCollectionsInOrganizationById,
  collections.createCollection,
  // Spaces
  spaces.getSpaceById,
  spaces.deleteSpaceById,
  spaces.updateSpaceById,
  spaces.duplicateSpace,
  spaces.restoreSpace,
  spaces.moveSpace,
  spaces.transferSpace,
  spaces.listSpacesInOrganizationById,
  spaces.createSpace,
  // Members
  members.listMembersInOrganizationById,
  members.getMemberInOrganizationById,
  members.updateMemberInOrganizationById,
  members.removeMemberFromOrganizationById,
  members.updateOrganizationMemberLastSeenAt,
  members.setUserAsSSOMemberForOrganization,
  members.listTeamsForOrganizationMember,
  // Adding people: invites by email, invite links, joining
  invites.inviteUsersToOrganization,
  invites.listOrganizationInviteLinks,
  invites.createOrganizationInvite,
  invites.getOrganizationInviteLink,
  invites.updateOrganizationInviteById,
  invites.deleteOrganizationInviteById,
  invites.joinOrganizationWithInvite,
  invites.joinOrganization,
  // Teams
  teams.listTeamsInOrganizationById,
  teams.createOrganizationTeam,
  teams.getTeamInOrganizationById,
  teams.updateTeamInOrganizationById,
  teams.removeTeamFromOrganizationById,
  teams.listTeamMembersInOrganizationById,
  teams.updateMembersInOrganizationTeam,
  teams.addMemberToOrganizationTeamById,
  teams.deleteMemberFromOrganizationTeamById,
  // SAML / SSO
  saml.listSAMLProvidersInOrganizationById,
  saml.createOrganizationSAMLProvider,
  saml.getOrganizationSAMLProviderById,
  saml.updateOrganizationSAMLProvider,
  saml.deleteOrganizationSAMLProvider,
  saml.listSSOProviderLoginsInOrganization,
  // Agent instructions
  agentInstructions.getOrganizationAgentInstructions,
  agentInstructions.updateOrganizationAgentInstructions,
  // OpenAPI specs and versions
  openapi.listOpenAPISpecs,
  openapi.createOpenAPISpec,
  openapi.getOpenAPISpecBySlug,
  openapi.createOrUpdateOpenAPISpecBySlug,
  openapi.deleteOpenAPISpecBySlug,
  openapi.updateOpenAPISpecBySlug,
  openapi.listOpenAPISpecVersions,
  openapi.getLatestOpenAPISpecVersion,
  openapi.getLatestOpenAPISpecVersionContent,
  openapi.getOpenAPISpecVersionById,
  openapi.getOpenAPISpecVersionContentById,
  // Space content: revisions, pages, files, search, authoring
  content.getCurrentRevision,
  content.getRevisionById,
  content.listPages,
  content.getPageById,
  content.getPageByPath,
  content.listFiles,
  content.getFileById,
  content.searchSpaceContent,
  content.searchOrganizationContent,
  content.updateChangeRequestContent,
  content.listSpaceLinks,
  content.listPageLinksInSpace,
  content.listSpaceFileBacklinks,
  content.listSpacePageBacklinks,
  content.applyTemplateToSpace,
  // Change requests (the base content authoring needs; the change-request area extends it)
  changeRequests.createChangeRequest,
  changeRequests.getChangeRequestById,
  changeRequests.listChangeRequestsForSpace,
  changeRequests.mergeChangeRequest,
  content.getRevisionOfChangeRequestById,
  content.listPagesInChangeRequest,
  content.listFilesInChangeRequestById,
  content.getPageInChangeRequestById,
];

export const OPERATIONS_BY_ID = new Map(OPERATIONS.map((o) => [o.operationId, o]));
