import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listOrganizationAuditEventActions',
  description: 'List the action names audit events carry (one per kind of write), for docs audit --action (admins only)',
  examples: ['<%= config.bin %> audit actions', '<%= config.bin %> audit actions --json'],
  orgFlag: true,
  columns: ['id', 'label'],
});
