import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteMemberFromOrganizationTeamById',
  description: 'Remove a member from a team',
  orgFlag: true,
  confirm: (p) => `Remove ${p.userId} from team ${p.teamId}?`,
  done: (status) => (status === 205 ? 'Removed.' : 'Nothing to do: no such team member.'),
  examples: [
    '<%= config.bin %> teams members remove T7gH2kLm9QpR4sVx8YzA Xk2f9QmL0aTz7WcV1bNp',
    '<%= config.bin %> teams members remove T7gH2kLm9QpR4sVx8YzA Xk2f9QmL0aTz7WcV1bNp --yes',
  ],
});
