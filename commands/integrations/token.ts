import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createIntegrationInstallationToken',
  description: 'Create a short-lived token acting for one installation, within its spaces, sites and the integration scopes (an hour)',
  examples: ['<%= config.bin %> integrations token slack Hk3sP0qLmZ8xWv2nR4tY', '<%= config.bin %> integrations token slack Hk3sP0qLmZ8xWv2nR4tY --jq .token'],
});
