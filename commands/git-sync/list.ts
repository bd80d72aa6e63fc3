import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteGitSyncInstallations',
  description: "List a site's Git Sync installations: its own, and those of its spaces",
  examples: ['<%= config.bin %> git-sync list site_Ab3dE5gH7jK9mN1pQ2rS', '<%= config.bin %> git-sync list site_Ab3dE5gH7jK9mN1pQ2rS --json'],
  orgFlag: true,
  columns: ['id', 'provider', 'target.type', 'target.spaceId', 'target.siteId', 'repositoryConnection.repositoryName', 'status'],
});
