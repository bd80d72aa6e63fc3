import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationsForAuthenticatedUser',
  description: 'List the organizations you are a member of',
  examples: [
    '<%= config.bin %> orgs list',
    '<%= config.bin %> orgs list --limit 10 --json',
    '<%= config.bin %> orgs list --api-url http://127.0.0.1:7780 --token $DOCS_TOKEN',
  ],
  columns: ['id', 'title', 'plan', 'createdAt'],
});
