import { operationCommand } from '../../_lib/operation-command.js';
import { chooseSpace } from '../../_lib/pick.js';

export default operationCommand({
  operationId: 'inviteToSpace',
  description: "Give users or teams a role on a space (a grant: it only raises their level)",
  examples: [
    '<%= config.bin %> spaces permissions add dHD9ZmkOPnfy9hWCsaQB --user Xk2f9QmL0aTz7WcV1bNp --role edit',
    '<%= config.bin %> spaces permissions add dHD9ZmkOPnfy9hWCsaQB --user Xk2f9QmL0aTz7WcV1bNp --user Pq7RsT2uVw9XyZ0aBcDe --team T7gH2kLm9QpR4sVx8YzA --role read',
  ],
  choose: { spaceId: chooseSpace },
  done: 'Granted.',
});
