import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSpaceIntegrationsBlocks',
  description: 'List the blocks the integrations installed on a space offer',
  examples: ['<%= config.bin %> spaces integrations blocks Ab3dE5gH7jK9mN1pQ2rS', '<%= config.bin %> spaces integrations blocks Ab3dE5gH7jK9mN1pQ2rS --json'],
  columns: ['name', 'blocks'],
});
