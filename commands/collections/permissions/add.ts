import { operationCommand } from '../../_lib/operation-command.js';
import { chooseCollection } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'inviteToCollection',
  description: "Give users or teams a role on a collection (and everything in it) (a grant: it only raises their level)",
  examples: [
    '<%= config.bin %> collections permissions add szoY47EmGxQDFXEuua83 --user Xk2f9QmL0aTz7WcV1bNp --role edit',
    '<%= config.bin %> collections permissions add szoY47EmGxQDFXEuua83 --user Xk2f9QmL0aTz7WcV1bNp --user Pq7RsT2uVw9XyZ0aBcDe --team T7gH2kLm9QpR4sVx8YzA --role read',
  ],
  choose: { collectionId: chooseCollection },
  done: 'Granted.',
});
