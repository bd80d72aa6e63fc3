import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listPermissionsAggregateInSite',
  description: 'Everyone who can reach a site, with the level they have there (role, defaults and grants together)',
  examples: ['<%= config.bin %> sites permissions effective szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites permissions effective szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
  columns: ['user.id', 'user.displayName', 'permission', 'origin.type'],
});
