import { allStatuses, dropAll, statusFlag } from '../_lib/cr-status.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listChangeRequestsForOrganization',
  description: "List change requests across the organization's spaces you can see (default: open ones; --status all: every status)",
  orgFlag: true,
  columns: ['space', 'number', 'subject', 'status', 'createdBy.displayName', 'createdAt', 'outdated'],
  flags: { status: statusFlag() },
  prepare: dropAll,
  call: allStatuses('listChangeRequestsForOrganization'),
  examples: [
    '<%= config.bin %> cr list-org',
    '<%= config.bin %> cr list-org --requested-reviewer Xk2f9QmL0aTz7WcV1bNp   # waiting for their review',
    '<%= config.bin %> cr list-org --status all',
    '<%= config.bin %> cr list-org --contributor Xk2f9QmL0aTz7WcV1bNp --status merged --org r55bjk0VeuQGpJpb7mcG --json',
  ],
});
