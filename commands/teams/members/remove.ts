import { memberNamed, teamNamed } from '../../_lib/names.js';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteMemberFromOrganizationTeamById',
  description: 'Remove a member from a team',
  orgFlag: true,
  confirm: async (p, _f, t) => {
    const [member, team] = await Promise.all([memberNamed(t, p.organizationId!, p.userId!), teamNamed(t, p.organizationId!, p.teamId!)]);
    return `Remove ${member} from ${team}?`;
  },
  done: (_s, p) => `Removed ${p.userId} from team ${p.teamId}. Add them back with: docs teams members add ${p.teamId} ${p.userId}`,
  missing: (p) => `${p.userId} is not a member of team ${p.teamId}: nothing removed`,
  examples: [
    '<%= config.bin %> teams members remove T7gH2kLm9QpR4sVx8YzA Xk2f9QmL0aTz7WcV1bNp',
    '<%= config.bin %> teams members remove T7gH2kLm9QpR4sVx8YzA Xk2f9QmL0aTz7WcV1bNp --yes',
  ],
});
