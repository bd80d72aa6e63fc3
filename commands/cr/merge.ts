import { mergeLike } from '../_lib/merge-result.js';

export default mergeLike({
  operationId: 'mergeChangeRequest',
  summary: 'Merge a change request into its space (three-way merge; exit 5 and the conflicting pages on conflicts)',
  examples: ['<%= config.bin %> cr merge dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr merge dHD9ZmkOPnfy9hWCsaQB Wd4QgN9vOzHyS4DBCRXQ --json'],
  done: (cr, space, revision) => `Merged change request ${cr} into space ${space}: revision ${revision}.`,
  hint: 'nothing was merged',
  clash: 'conflicts with',
});
