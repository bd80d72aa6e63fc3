import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'inviteToSite',
  description: 'Give users or teams a role on a site (a grant: it only raises their level)',
  examples: [
    '<%= config.bin %> sites permissions add szK9Qp2mTtR4bLx0aVn1 --user Xk2f9QmL0aTz7WcV1bNp --role edit',
    '<%= config.bin %> sites permissions add szK9Qp2mTtR4bLx0aVn1 --user Xk2f9QmL0aTz7WcV1bNp --user Pq7RsT2uVw9XyZ0aBcDe --team T7gH2kLm9QpR4sVx8YzA --role read',
  ],
  orgFlag: true,
  done: 'Granted.',
  // The body is a role and users, teams or both (anyOf): one repeatable flag for each.
  flags: {
    users: Flags.string({ description: 'User to give the role to (id, repeatable)', multiple: true, aliases: ['user'] }),
    teams: Flags.string({ description: 'Team to give the role to (id, repeatable)', multiple: true, aliases: ['team'] }),
  },
  prepare: (req, flags) => {
    req.body = { ...req.body, ...(flags.users ? { users: flags.users } : {}), ...(flags.teams ? { teams: flags.teams } : {}) };
  },
});
