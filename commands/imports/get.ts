import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getImportRun',
  description: 'Show an import run: status, its pages, and why it failed if it did',
  examples: ['<%= config.bin %> imports get Imp0rtRunXyz1234567', '<%= config.bin %> imports get Imp0rtRunXyz1234567 --json'],
  orgFlag: true,
});
