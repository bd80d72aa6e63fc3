import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeRequestedReviewerFromChangeRequest',
  description: 'Stop asking a user to review a change request',
  examples: ['<%= config.bin %> cr remove-reviewer dHD9ZmkOPnfy9hWCsaQB 4 Xk2f9QmL0aTz7WcV1bNp'],
  done: 'Removed.',
  missing: (p) => `${p.userId} was not asked to review change request ${p.changeRequestId}: nothing removed`,
});
