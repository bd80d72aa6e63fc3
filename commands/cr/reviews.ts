import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getReviewsByChangeRequestId',
  description: 'List the reviews of a change request (newest first; outdated ones no longer count for merge rules)',
  columns: ['id', 'status', 'reviewer.displayName', 'outdated', 'createdAt', 'comment.body.markdown'],
  examples: [
    '<%= config.bin %> cr reviews dHD9ZmkOPnfy9hWCsaQB 3',
    '<%= config.bin %> cr reviews dHD9ZmkOPnfy9hWCsaQB 3 --no-outdated',
    '<%= config.bin %> cr reviews dHD9ZmkOPnfy9hWCsaQB 3 --format document --json',
  ],
});
