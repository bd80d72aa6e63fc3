import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getCustomHostname',
  description: 'Show a custom hostname: its site, whether it is active and the last DNS check',
  examples: ['<%= config.bin %> sites hostname get docs.example.com'],
});
