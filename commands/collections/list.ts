import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listCollectionsInOrganizationById',
  description: 'List the collections of an organization (every level, depth first)',
  examples: [
    '<%= config.bin %> collections list',
    '<%= config.bin %> collections list --org 6yZr3RyMqly3HeMx6Xkr --no-nested',
    '<%= config.bin %> collections list --json',
  ],
  columns: ['id', 'title', 'parent', 'defaultLevel'],
  orgFlag: true,
});
