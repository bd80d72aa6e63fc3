import { memberNamed, orgNamed } from '../_lib/names.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'removeMemberFromOrganizationById',
  description: 'Remove a member from the organization (admins; anyone can remove themself)',
  orgFlag: true,
  confirm: async (p, _f, t) => {
    const [member, org] = await Promise.all([memberNamed(t, p.organizationId!, p.userId!), orgNamed(t, p.organizationId!)]);
    return `Remove ${member} from ${org}?`;
  },
  done: (_s, p) =>
    `Removed member ${p.userId} from organization ${p.organizationId}. To add them back: docs invites send --org ${p.organizationId} --emails EMAIL`,
  missing: (p) => `member ${p.userId} not found in organization ${p.organizationId}: nothing removed`,
  examples: ['<%= config.bin %> members remove Xk2f9QmL0aTz7WcV1bNp', '<%= config.bin %> members remove Xk2f9QmL0aTz7WcV1bNp --org r55bjk0VeuQGpJpb7mcG --yes'],
});
