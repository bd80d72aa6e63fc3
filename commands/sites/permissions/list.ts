import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listUserPermissionsInSite',
  description: 'List the users given a role on a site',
  examples: ['<%= config.bin %> sites permissions list szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites permissions list szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
  columns: ['user.id', 'user.displayName', 'user.email', 'permission'],
});
