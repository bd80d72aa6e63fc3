import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSpaceIntegrations',
  description: 'List the integrations installed on a space',
  examples: [
    '<%= config.bin %> spaces integrations list Ab3dE5gH7jK9mN1pQ2rS',
    '<%= config.bin %> spaces integrations list Ab3dE5gH7jK9mN1pQ2rS --search slack --json',
  ],
  columns: ['name', 'title', 'target'],
});
