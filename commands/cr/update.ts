import { mergeLike } from '../_lib/merge-result.js';

export default mergeLike({
  operationId: 'updateChangeRequest',
  summary: "Bring the space's current content into a change request (three-way merge; exit 5 on conflicts)",
  examples: ['<%= config.bin %> cr update dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr update dHD9ZmkOPnfy9hWCsaQB 4 --json'],
  done: (cr, space, revision) => `Updated change request ${cr} from space ${space}: revision ${revision}.`,
  hint: 'the change request was not updated',
  clash: 'cannot take the changes of',
});
