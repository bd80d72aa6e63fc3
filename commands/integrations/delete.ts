import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'unpublishIntegration',
  description: 'Delete (unpublish) an integration, with its installations and events',
  examples: ['<%= config.bin %> integrations delete slack', '<%= config.bin %> integrations delete slack --yes'],
  confirm: (path) => `Delete the integration ${path.integrationName}, its installations and its events?`,
  done: (status) => (status === 205 ? 'Deleted.' : 'There was no such integration: nothing deleted.'),
});
