import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateUserPermissionInSite',
  description: "Change a user's role on a site",
  examples: ['<%= config.bin %> sites permissions update szK9Qp2mTtR4bLx0aVn1 Xk2f9QmL0aTz7WcV1bNp --role review'],
  orgFlag: true,
  done: 'Updated.',
});
