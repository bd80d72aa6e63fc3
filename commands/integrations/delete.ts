import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'unpublishIntegration',
  description: 'Delete (unpublish) an integration, with its installations and events',
  examples: ['<%= config.bin %> integrations delete slack', '<%= config.bin %> integrations delete slack --yes'],
  confirm: (path) => `Delete the integration ${path.integrationName}, its installations and its events?`,
  done: (_s, p) => `Deleted integration ${p.integrationName} with its installations and events (not restorable).`,
  missing: (p) => `integration ${p.integrationName} not found: nothing deleted`,
});
