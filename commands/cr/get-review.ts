import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getChangeRequestReviewById',
  description: 'Show one review of a change request',
  examples: [
    '<%= config.bin %> cr get-review dHD9ZmkOPnfy9hWCsaQB 4 rvw8Kq2LmZ0xNc4VtB7a',
    '<%= config.bin %> cr get-review dHD9ZmkOPnfy9hWCsaQB 4 rvw8Kq2LmZ0xNc4VtB7a --json',
  ],
});
