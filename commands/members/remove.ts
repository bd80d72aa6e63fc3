import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeMemberFromOrganizationById',
  description: 'Remove a member from the organization (admins; anyone can remove themself)',
  orgFlag: true,
  confirm: (p) => `Remove member ${p.userId} from organization ${p.organizationId}?`,
  done: (status) => (status === 205 ? 'Removed.' : 'Nothing to do: no such member.'),
  examples: [
    '<%= config.bin %> members remove Xk2f9QmL0aTz7WcV1bNp',
    '<%= config.bin %> members remove Xk2f9QmL0aTz7WcV1bNp --org r55bjk0VeuQGpJpb7mcG --yes',
  ],
});
