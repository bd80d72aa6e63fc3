import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getTranslation',
  description: 'Show a translation: status, result, stats, and why the latest run failed if it did',
  examples: ['<%= config.bin %> translations get Tr4nsL8tI0nxYz123456', '<%= config.bin %> translations get Tr4nsL8tI0nxYz123456 --json'],
  orgFlag: true,
});
