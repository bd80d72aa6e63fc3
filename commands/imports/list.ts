import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listImportRuns',
  description: 'List the import runs of an organization, most recent first (--space, --status to filter)',
  examples: ['<%= config.bin %> imports list', '<%= config.bin %> imports list --space dHD9ZmkOPnfy9hWCsaQB --status active --json'],
  columns: ['id', 'status', 'target.space', 'target.changeRequest', 'pages.length', 'reason', 'createdAt'],
  orgFlag: true,
});
