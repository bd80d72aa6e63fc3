import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'cancelImportRun',
  description: 'Cancel a pending or running import: nothing of it is written',
  examples: ['<%= config.bin %> imports cancel Imp0rtRunXyz1234567', '<%= config.bin %> imports cancel Imp0rtRunXyz1234567 --json'],
  orgFlag: true,
  done: 'Cancelled.',
});
