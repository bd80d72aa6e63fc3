import type { Operation } from './kernel/operation.js';
import { setServedOperations } from './kernel/served.js';

// Every operation this project serves, by area: the one list the HTTP router, the CLI transports,
// the generated tests and the served-operations snapshot read. Each area's handlers are loaded
// on first use, so an in-process CLI command loads only the area it calls (docs serve loads them
// all at start). An area module exports each handler under its operationId (a test checks it).

interface Area {
  load: () => Promise<Record<string, unknown>>;
  operations: readonly string[];
}

export const AREAS: Area[] = [
  {
    // users
    load: () => import('./users/operations.js'),
    operations: ['getAuthenticatedUser', 'getUserById', 'updateUserById', 'createUserNotificationsToken'],
  },
  {
    // organizations
    load: () => import('./organizations/operations.js'),
    operations: [
      'listOrganizationsForAuthenticatedUser',
      'getOrganizationById',
      'createOrganization',
      'updateOrganizationById',
      'getSubdomain',
      'getOrganizationsForEmailDomain',
      'getOrganizationAIUsage',
    ],
  },
  {
    // collections
    load: () => import('./collections/operations.js'),
    operations: [
      'getCollectionById',
      'deleteCollectionById',
      'updateCollectionById',
      'listSpacesInCollectionById',
      'moveCollection',
      'transferCollection',
      'listCollectionsInOrganizationById',
      'createCollection',
    ],
  },
  {
    // spaces
    load: () => import('./spaces/operations.js'),
    operations: [
      'getSpaceById',
      'deleteSpaceById',
      'updateSpaceById',
      'duplicateSpace',
      'restoreSpace',
      'moveSpace',
      'transferSpace',
      'listSpacesInOrganizationById',
      'createSpace',
    ],
  },
  {
    // members
    load: () => import('./members/operations.js'),
    operations: [
      'listMembersInOrganizationById',
      'getMemberInOrganizationById',
      'updateMemberInOrganizationById',
      'removeMemberFromOrganizationById',
      'updateOrganizationMemberLastSeenAt',
      'setUserAsSSOMemberForOrganization',
      'listTeamsForOrganizationMember',
      'listSpacesForOrganizationMember',
    ],
  },
  {
    // invites
    load: () => import('./invites/operations.js'),
    operations: [
      'inviteUsersToOrganization',
      'listOrganizationInviteLinks',
      'createOrganizationInvite',
      'getOrganizationInviteLink',
      'updateOrganizationInviteById',
      'deleteOrganizationInviteById',
      'joinOrganizationWithInvite',
      'joinOrganization',
    ],
  },
  {
    // teams
    load: () => import('./teams/operations.js'),
    operations: [
      'listTeamsInOrganizationById',
      'createOrganizationTeam',
      'getTeamInOrganizationById',
      'updateTeamInOrganizationById',
      'removeTeamFromOrganizationById',
      'listTeamMembersInOrganizationById',
      'updateMembersInOrganizationTeam',
      'addMemberToOrganizationTeamById',
      'deleteMemberFromOrganizationTeamById',
    ],
  },
  {
    // permissions
    load: () => import('./permissions/operations.js'),
    operations: [
      'inviteToSpace',
      'listUserPermissionsInSpace',
      'updateUserPermissionInSpace',
      'listTeamPermissionsInSpace',
      'updateTeamPermissionInSpace',
      'listPermissionsAggregateInSpace',
      'removeUserFromSpace',
      'removeTeamFromSpace',
      'inviteToCollection',
      'listUserPermissionsInCollection',
      'updateUserPermissionInCollection',
      'listTeamPermissionsInCollection',
      'updateTeamPermissionInCollection',
      'listPermissionsAggregateInCollection',
      'removeUserFromCollection',
      'removeTeamFromCollection',
      'inviteToSite',
      'listUserPermissionsInSite',
      'updateUserPermissionInSite',
      'listTeamPermissionsInSite',
      'updateTeamPermissionInSite',
      'listPermissionsAggregateInSite',
      'removeUserFromSite',
      'removeTeamFromSite',
    ],
  },
  {
    // saml
    load: () => import('./saml/operations.js'),
    operations: [
      'listSAMLProvidersInOrganizationById',
      'createOrganizationSAMLProvider',
      'getOrganizationSAMLProviderById',
      'updateOrganizationSAMLProvider',
      'deleteOrganizationSAMLProvider',
      'listSSOProviderLoginsInOrganization',
    ],
  },
  {
    // agentInstructions
    load: () => import('./agent-instructions/operations.js'),
    operations: ['getOrganizationAgentInstructions', 'updateOrganizationAgentInstructions'],
  },
  {
    // agents: agent tasks from the conversations engine, the setup state, organization agent conversations, change request conversations
    load: () => import('./agents/operations.js'),
    operations: [
      'getAgentSetupState',
      'listAgentTasks',
      'getAgentTask',
      'updateAgentTask',
      'listOrganizationAgentConversations',
      'provisionOrganizationAgentConversation',
      'updateOrganizationAgentConversation',
      'deleteOrganizationAgentConversation',
      'listChangeRequestConversations',
      'updateChangeRequestConversation',
      'deleteChangeRequestConversation',
    ],
  },
  {
    // computed content: documents and revisions computed from a source (builtin:openapi, builtin:translation)
    load: () => import('./computed/operations.js'),
    operations: ['getComputedDocument', 'getComputedRevision'],
  },
  {
    // openapi
    load: () => import('./openapi/operations.js'),
    operations: [
      'listOpenAPISpecs',
      'createOpenAPISpec',
      'getOpenAPISpecBySlug',
      'createOrUpdateOpenAPISpecBySlug',
      'deleteOpenAPISpecBySlug',
      'updateOpenAPISpecBySlug',
      'listOpenAPISpecVersions',
      'getLatestOpenAPISpecVersion',
      'getLatestOpenAPISpecVersionContent',
      'getLatestOpenAPISpecVersionContentRaw',
      'getOpenAPISpecVersionById',
      'getOpenAPISpecVersionContentById',
    ],
  },
  {
    // integrations
    load: () => import('./integrations/operations.js'),
    operations: [
      'listIntegrations',
      'getIntegrationByName',
      'publishIntegration',
      'unpublishIntegration',
      'listIntegrationInstallations',
      'installIntegration',
      'getIntegrationInstallationById',
      'updateIntegrationInstallation',
      'uninstallIntegration',
      'listIntegrationSpaceInstallations',
      'listIntegrationSiteInstallations',
      'listIntegrationEvents',
      'getIntegrationEvent',
      'setIntegrationDevelopmentMode',
      'disableIntegrationDevelopmentMode',
      'createIntegrationInstallationToken',
      'installIntegrationOnSpace',
      'listIntegrationInstallationSpaces',
      'getIntegrationSpaceInstallation',
      'updateIntegrationSpaceInstallation',
      'uninstallIntegrationFromSpace',
      'installIntegrationOnSite',
      'listIntegrationInstallationSites',
      'getIntegrationSiteInstallation',
      'updateIntegrationSiteInstallation',
      'uninstallIntegrationFromSite',
      'listOrganizationIntegrations',
      'listOrganizationInstallations',
      'getOrganizationIntegrationStatus',
      'listSpaceIntegrations',
      'listSiteIntegrations',
      'listOrganizationIntegrationsStatus',
      'listSiteIntegrationScripts',
      'listSpaceIntegrationsBlocks',
      'queueIntegrationTask',
      'renderIntegrationUIWithGet',
      'renderIntegrationUIWithPost',
      'deleteLegacyGitInstallation',
    ],
  },
  {
    // conversations
    load: () => import('./conversations/operations.js'),
    operations: [
      'listConversationsIssuesClusters',
      'getConversationsIssuesCluster',
      'listConversations',
      'ingestConversation',
      'listConversationsIssues',
      'getConversationIssueById',
      'getConversationById',
    ],
  },
  {
    // ask: questions answered from the documentation, with their sources (docs/manual/ask.md)
    load: () => import('./ask/operations.js'),
    operations: [
      'askInOrganization',
      'streamAskInOrganization',
      'getRecommendedQuestionsInOrganization',
      'streamRecommendedQuestionsInOrganization',
      'streamAskInSite',
      'streamRecommendedQuestionsInSite',
      'streamAIResponseInSite',
      'streamExistingAIResponseInSite',
    ],
  },
  {
    // site questions: what visitors asked a site and the answers given, read from ask's rows (docs/manual/ask.md#site-questions-and-answers)
    load: () => import('./ask/question-operations.js'),
    operations: [
      'listSiteQuestions',
      'getSiteQuestionById',
      'listSiteQuestionSources',
      'getSiteQuestionStats',
      'listSiteQuestionAnswers',
      'getSiteQuestionAnswerById',
      'getSiteQuestionAnswerThreadById',
      'listSiteQuestionAnswerSources',
    ],
  },
  {
    // styleguides: a site's writing rules (a space of type styleguide), templates, check runs (docs/manual/styleguides.md)
    load: () => import('./styleguides/operations.js'),
    operations: ['createSiteStyleguideById', 'createSiteStyleguideRun', 'listSiteStyleguideRuns', 'listStyleguideTemplates', 'listOrganizationStyleguides'],
  },
  {
    // a site's context connections and the records they bring in (docs/manual/site-context.md#connections-and-records)
    load: () => import('./site-context/connection-operations.js'),
    operations: [
      'listSiteContextConnections',
      'createSiteContextConnection',
      'getSiteContextConnectionById',
      'updateSiteContextConnectionById',
      'deleteSiteContextConnectionById',
      'syncSiteContextConnection',
      'testSiteContextConnection',
      'listSiteContextRecords',
      'upsertSiteContextRecords',
      'getSiteContextRecordById',
    ],
  },
  {
    // site findings: a site's scans, findings (gaps, broken links, outdated pages), topics and the change requests fixing them (docs/manual/site-findings.md)
    load: () => import('./site-context/findings-operations.js'),
    operations: [
      'listSiteScans',
      'getSiteScanById',
      'listSiteFindings',
      'getSiteFindingById',
      'updateSiteFindingById',
      'listChangeRequestsForSiteFinding',
      'triggerChangeRequestsForSiteFinding',
      'listPagesForSiteFinding',
      'listQuestionsForSiteFinding',
      'listRecordsForSiteFinding',
      'getSiteFindingStats',
      'listSiteTopics',
      'getSiteTopicById',
      'updateSiteTopicById',
      'deleteSiteTopicFindings',
    ],
  },
  {
    // translations
    load: () => import('./translations/operations.js'),
    operations: [
      'listTranslations',
      'createTranslation',
      'getTranslation',
      'updateTranslation',
      'deleteTranslation',
      'runTranslation',
      'listGlossaryEntries',
      'updateGlossaryEntries',
      'getGlossaryEntry',
    ],
  },
  {
    // custom fonts and their uploads (they write bytes: the content area's blobs)
    load: () => import('./sites/font-operations.js'),
    operations: ['listCustomFonts', 'createCustomFont', 'getCustomFont', 'updateCustomFont', 'deleteCustomFont'],
  },
  {
    // how sites are delivered: publishing auth, hostnames, MCP servers, search, preview, ads
    load: () => import('./sites/delivery-operations.js'),
    operations: [
      'getSitePublishingAuthById',
      'updateSitePublishingAuthById',
      'regenerateSitePublishingAuthById',
      'getCustomHostname',
      'removeCustomHostname',
      'dnsRevalidateCustomHostname',
      'listSiteMcpServers',
      'createSiteMcpServer',
      'getSiteMcpServerById',
      'updateSiteMcpServerById',
      'deleteSiteMcpServerById',
    ],
  },
  {
    // site redirects (their rules need a page's path: the content area)
    load: () => import('./sites/redirect-operations.js'),
    operations: [
      'listSiteRedirects',
      'createSiteRedirect',
      'bulkUpsertSiteRedirects',
      'getSiteRedirectBySource',
      'updateSiteRedirectById',
      'deleteSiteRedirectById',
    ],
  },
  {
    // site insights: events the published site records, their aggregation, visitor segments
    load: () => import('./sites/insight-operations.js'),
    operations: ['trackEventsInSiteById', 'aggregateSiteEvents', 'listSiteVisitorSegments'],
  },
  {
    // a site's agent channels, external links, agent settings and feedback, duplicating a site
    // space, the site template (docs/manual/site-agents.md): they reach integrations, content, insights
    load: () => import('./sites/agent-operations.js'),
    operations: [
      'listSiteChannels',
      'createSiteChannel',
      'getSiteChannelById',
      'updateSiteChannelById',
      'deleteSiteChannelById',
      'addExternalLinkToSite',
      'updateSiteExternalLinkById',
      'deleteSiteExternalLinkById',
      'getSiteAgentSettingsById',
      'updateSiteAgentSettingsById',
      'submitSiteAgentFeedback',
      'submitAgentFeedbackToSite',
      'duplicateSiteSpace',
      'applyTemplateToSite',
    ],
  },
  {
    // sites
    load: () => import('./sites/operations.js'),
    operations: [
      'listSites',
      'createSite',
      'getSiteById',
      'updateSiteById',
      'deleteSiteById',
      'publishSite',
      'updateSiteAdsById',
      'adsListSites',
      'adsUpdateSite',
      'unpublishSite',
      'getPublishedContentSite',
      'getSiteStructure',
      'sortSiteStructure',
      'listSiteSections',
      'addSectionToSite',
      'updateSiteSectionById',
      'deleteSiteSectionById',
      'moveSiteSection',
      'listSiteSectionGroups',
      'addSectionGroupToSite',
      'updateSiteSectionGroupById',
      'deleteSiteSectionGroupById',
      'addSectionToGroup',
      'removeSectionFromGroup',
      'moveSiteSectionGroup',
      'listSiteSpaces',
      'addSpaceToSite',
      'updateSiteSpaceById',
      'deleteSiteSpaceById',
      'moveSiteSpace',
      'getSiteAdaptiveSchema',
      'updateSiteAdaptiveSchema',
      'listSiteAdaptiveTemplateConditions',
      'getSiteCustomizationById',
      'updateSiteCustomizationById',
      'getSiteSpaceCustomizationById',
      'overrideSiteSpaceCustomizationById',
      'deleteSiteSpaceCustomizationById',
      'listSiteShareLinks',
      'createSiteShareLink',
      'updateSiteShareLinkById',
      'deleteSiteShareLinkById',
    ],
  },
  {
    // content
    load: () => import('./content/operations.js'),
    operations: [
      // signed upload URLs (docs/manual/imports-and-git.md#upload-urls): src/content/storage-operations.ts
      'generateStorageUploadURL',
      'getCurrentRevision',
      'getRevisionById',
      'listPages',
      'getPageById',
      'getPageByPath',
      'listFiles',
      'getFileById',
      'searchSpaceContent',
      'searchOrganizationContent',
      'updateChangeRequestContent',
      'listSpaceLinks',
      'listPageLinksInSpace',
      'listSpaceFileBacklinks',
      'listSpacePageBacklinks',
      'applyTemplateToSpace',
      'getRevisionOfChangeRequestById',
      'listPagesInChangeRequest',
      'listFilesInChangeRequestById',
      'getPageInChangeRequestById',
      'getFileInChangeRequestById',
      'listChangeRequestFileBacklinks',
      'listPageLinksInChangeRequest',
      'listChangeRequestLinks',
      'listChangeRequestPageBacklinks',
      'getPageInChangeRequestByPath',
      'listPagesInRevisionById',
      'getPageInRevisionById',
      'getPageInRevisionByPath',
      'listSpacePageMetaLinks',
      'listRevisionPageMetaLinks',
      'listChangeRequestPageMetaLinks',
      'getPageDocumentInRevisionById',
      'listFilesInRevisionById',
      'getFileInRevisionById',
      'getDocumentById',
      'getReusableContentById',
      'getReusableContentInRevisionById',
      'getReusableContentDocumentInRevisionById',
      'getReusableContentInChangeRequestById',
    ],
  },
  {
    // changeRequests
    load: () => import('./change-requests/operations.js'),
    operations: [
      'createChangeRequest',
      'getChangeRequestById',
      'listChangeRequestsForSpace',
      'mergeChangeRequest',
      'updateChangeRequestById',
      'updateChangeRequest',
    ],
  },
  {
    // pdf
    load: () => import('./pdf/operations.js'),
    operations: ['getSpacePDF', 'getChangeRequestPDF'],
  },
  {
    // comments (space and change-request forms share handlers)
    load: () => import('./comments/operations.js'),
    operations: [
      'listCommentsInSpace',
      'postCommentInSpace',
      'getCommentInSpace',
      'updateCommentInSpace',
      'deleteCommentInSpace',
      'listCommentRepliesInSpace',
      'postCommentReplyInSpace',
      'getCommentReplyInSpace',
      'updateCommentReplyInSpace',
      'deleteCommentReplyInSpace',
      'listCommentersInSpace',
      'listCommentsInChangeRequest',
      'postCommentInChangeRequest',
      'getCommentInChangeRequest',
      'updateCommentInChangeRequest',
      'deleteCommentInChangeRequest',
      'listCommentRepliesInChangeRequest',
      'postCommentReplyInChangeRequest',
      'getCommentReplyInChangeRequest',
      'updateCommentReplyInChangeRequest',
      'deleteCommentReplyInChangeRequest',
      'listCommentersInChangeRequest',
    ],
  },
  {
    // change-request reviews: semantic changes, reviews, review requests, contributors, org-wide list
    load: () => import('./change-requests/review-operations.js'),
    operations: [
      'getChangeRequestChanges',
      'getReviewsByChangeRequestId',
      'getChangeRequestReviewById',
      'submitChangeRequestReview',
      'requestReviewersForChangeRequest',
      'getRequestedReviewersByChangeRequestId',
      'removeRequestedReviewerFromChangeRequest',
      'getContributorsByChangeRequestId',
      'listChangeRequestsForOrganization',
      'getRevisionSemanticChanges',
    ],
  },
  {
    // urls: this server's own addresses resolved to what they show (spaces, collections, pages, change requests)
    load: () => import('./urls/operations.js'),
    operations: ['getContentByUrl', 'getEmbedByUrl', 'getEmbedByUrlInSpace'],
  },
  {
    // published URLs: what an address of a site published here shows, as its visitor sees it (docs/manual/sites.md#published-urls)
    load: () => import('./urls/published-operations.js'),
    operations: ['getPublishedContentByUrl', 'resolvePublishedContentByUrl'],
  },
  {
    // a site's own search as an API, and the preview of its draft (docs/manual/sites.md#site-search-and-preview)
    load: () => import('./urls/site-operations.js'),
    operations: ['searchSiteContent', 'prewarmSiteSearch', 'getSitePublishingPreviewById'],
  },
  {
    // system: the API itself (GET /v1/)
    load: () => import('./system/operations.js'),
    operations: ['getApiInformation'],
  },
  {
    // imports (docs/manual/imports-and-git.md)
    load: () => import('./imports/operations.js'),
    operations: ['startImportRun', 'listImportRuns', 'getImportRun', 'cancelImportRun'],
  },
  {
    // git (docs/manual/imports-and-git.md)
    load: () => import('./git/operations.js'),
    operations: ['importGitRepository', 'exportToGitRepository', 'getSpaceGitInfo'],
  },
  {
    // Git Sync installations (docs/manual/imports-and-git.md#git-sync-installations)
    load: () => import('./git/installation-operations.js'),
    operations: [
      'installGitSyncProviderOnTarget',
      'getGitSyncInstallationById',
      'updateGitSyncInstallationById',
      'uninstallGitSyncInstallation',
      'listGitHubRepositoriesForGitSyncInstallation',
      'listGitHubRepoBranchesForGitSyncInstallation',
      'getGitHubRepoFileForGitSyncInstallation',
      'listGitLabProjectsForGitSyncInstallation',
      'listGitLabProjectBranchesForGitSyncInstallation',
      'getGitLabProjectFileForGitSyncInstallation',
      'listSiteGitSyncInstallations',
    ],
  },
  {
    // audit: an organization's log of the writes made through invoke (docs/manual/audit.md)
    load: () => import('./audit/operations.js'),
    operations: ['listOrganizationAuditEvents', 'getOrganizationAuditEvent', 'listOrganizationAuditEventActions'],
  },
];

export const OPERATION_IDS: readonly string[] = AREAS.flatMap((a) => a.operations);
setServedOperations(OPERATION_IDS);
/** The operations served, by id (their handlers are loaded by `loadOperation`). */
export const OPERATIONS: readonly { operationId: string }[] = OPERATION_IDS.map((operationId) => ({ operationId }));

const areaOf = new Map(AREAS.flatMap((a) => a.operations.map((id) => [id, a] as const)));
const loaded = new Map<string, Operation>();

/** The handler of an operation if its area is loaded already (the synchronous hot path). */
export const loadedOperation = (operationId: string): Operation | undefined => loaded.get(operationId);

/** Loads the area of an operation; undefined for an operation this server does not serve. */
export async function loadOperation(operationId: string): Promise<Operation | undefined> {
  const hit = loaded.get(operationId);
  if (hit) return hit;
  const area = areaOf.get(operationId);
  if (!area) return undefined;
  const mod = await area.load();
  for (const id of area.operations) {
    const op = mod[id] as Operation | undefined;
    if (!op || op.operationId !== id) throw new Error(`${id} is not exported by its area module under its operationId`);
    loaded.set(id, op);
  }
  return loaded.get(operationId);
}

/** Loads every area (docs serve, at start: no request waits for a module). */
export async function loadAllOperations(): Promise<void> {
  // One area after another: the areas import each other (change requests <-> content <-> comments),
  // and vitest's module runner can deadlock when concurrent dynamic imports meet in such a cycle;
  // Node would not, and loading is synchronous work anyway, so nothing is lost in order.
  for (const a of AREAS) await loadOperation(a.operations[0]!);
}
