import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'inviteToCollection',
  description: 'Give users or teams a role on a collection and everything in it (a grant: it only raises their level)',
  examples: [
    '<%= config.bin %> collections permissions add szoY47EmGxQDFXEuua83 --user Xk2f9QmL0aTz7WcV1bNp --role edit',
    '<%= config.bin %> collections permissions add szoY47EmGxQDFXEuua83 --user Xk2f9QmL0aTz7WcV1bNp --user Pq7RsT2uVw9XyZ0aBcDe --team T7gH2kLm9QpR4sVx8YzA --role read',
  ],
  choose: { collectionId: chooseCollection },
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
