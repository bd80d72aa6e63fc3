import type { Operation } from './kernel/operation.js';
import * as agentInstructions from './agent-instructions/operations.js';
import * as changeRequests from './change-requests/operations.js';
import * as collections from './collections/operations.js';
import * as content from './content/operations.js';
import * as conversations from './conversations/operations.js';
import * as integrations from './integrations/operations.js';
import * as invites from './invites/operations.js';
import * as members from './members/operations.js';
import * as openapi from './openapi/operations.js';
import * as organizations from './organizations/operations.js';
import * as saml from './saml/operations.js';
import * as sites from './sites/operations.js';
import * as spaces from './spaces/operations.js';
import * as teams from './teams/operations.js';
import * as translations from './translations/operations.js';
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
  members.listSpacesForOrganizationMember,
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
  // Integrations, installations, events, development mode
  integrations.listIntegrations,
  integrations.getIntegrationByName,
  integrations.publishIntegration,
  integrations.unpublishIntegration,
  integrations.listIntegrationInstallations,
  integrations.installIntegration,
  integrations.getIntegrationInstallationById,
  integrations.updateIntegrationInstallation,
  integrations.uninstallIntegration,
  integrations.listIntegrationSpaceInstallations,
  integrations.listIntegrationSiteInstallations,
  integrations.listIntegrationEvents,
  integrations.getIntegrationEvent,
  integrations.setIntegrationDevelopmentMode,
  integrations.disableIntegrationDevelopmentMode,
  // Conversations: ingestion, issues and clusters
  conversations.listConversationsIssuesClusters,
  conversations.getConversationsIssuesCluster,
  conversations.listConversations,
  conversations.ingestConversation,
  conversations.listConversationsIssues,
  conversations.getConversationIssueById,
  conversations.getConversationById,
  // Translations
  translations.listTranslations,
  translations.createTranslation,
  translations.getTranslation,
  translations.updateTranslation,
  translations.deleteTranslation,
  translations.runTranslation,
  // Docs sites: sites, publishing, structure, site spaces, adaptive content, customization, share links
  sites.listSites,
  sites.createSite,
  sites.getSiteById,
  sites.updateSiteById,
  sites.deleteSiteById,
  sites.publishSite,
  sites.unpublishSite,
  sites.getPublishedContentSite,
  sites.getSiteStructure,
  sites.sortSiteStructure,
  sites.listSiteSections,
  sites.addSectionToSite,
  sites.updateSiteSectionById,
  sites.deleteSiteSectionById,
  sites.moveSiteSection,
  sites.listSiteSectionGroups,
  sites.addSectionGroupToSite,
  sites.updateSiteSectionGroupById,
  sites.deleteSiteSectionGroupById,
  sites.addSectionToGroup,
  sites.removeSectionFromGroup,
  sites.moveSiteSectionGroup,
  sites.listSiteSpaces,
  sites.addSpaceToSite,
  sites.updateSiteSpaceById,
  sites.deleteSiteSpaceById,
  sites.moveSiteSpace,
  sites.getSiteAdaptiveSchema,
  sites.updateSiteAdaptiveSchema,
  sites.listSiteAdaptiveTemplateConditions,
  sites.getSiteCustomizationById,
  sites.updateSiteCustomizationById,
  sites.getSiteSpaceCustomizationById,
  sites.overrideSiteSpaceCustomizationById,
  sites.deleteSiteSpaceCustomizationById,
  sites.listSiteShareLinks,
  sites.createSiteShareLink,
  sites.updateSiteShareLinkById,
  sites.deleteSiteShareLinkById,
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
