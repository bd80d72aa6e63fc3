import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationById',
  description: 'Show one organization',
  examples: ['<%= config.bin %> orgs get 6yZr3RyMqly3HeMx6Xkr', '<%= config.bin %> orgs get 6yZr3RyMqly3HeMx6Xkr --json'],
});
