import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationAuditEvent',
  description: 'Show one audit event with what its operation wrote (admins only)',
  examples: ['<%= config.bin %> audit get 0b8e4c52-3f1d-4a8e-9c7b-2d5f6a1e9b30', '<%= config.bin %> audit get 0b8e4c52-3f1d-4a8e-9c7b-2d5f6a1e9b30 --json'],
  orgFlag: true,
});
