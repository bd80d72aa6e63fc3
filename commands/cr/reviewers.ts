import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getRequestedReviewersByChangeRequestId',
  description: 'List the users asked to review a change request',
  examples: ['<%= config.bin %> cr reviewers dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr reviewers dHD9ZmkOPnfy9hWCsaQB 4 --json'],
  columns: ['kind', 'user.id', 'user.displayName', 'team.title', 'requestedBy.displayName', 'createdAt'],
});
