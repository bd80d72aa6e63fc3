import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'updateTeamPermissionInCollection',
  description: "Remove a team's grant on a collection",
  examples: ['<%= config.bin %> collections permissions remove-team szoY47EmGxQDFXEuua83 T7gH2kLm9QpR4sVx8YzA'],
  choose: { collectionId: chooseCollection },
  done: 'Removed.',
  flags: { role: Flags.string({ hidden: true }) },
  prepare: (req) => {
    req.body = { role: null };
  },
});
