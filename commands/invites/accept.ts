import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'joinOrganizationWithInvite',
  description: 'Join an organization with an invite link',
  done: 'Joined.',
  examples: [
    '<%= config.bin %> invites accept r55bjk0VeuQGpJpb7mcG I9nV1t3L1nK5aB7cD2eF',
  ],
});
