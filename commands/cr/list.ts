import { allStatuses, dropAll, statusFlag } from '../_lib/cr-status.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listChangeRequestsForSpace',
  description: "List a space's change requests (default: open ones; --status all: every status)",
  examples: [
    '<%= config.bin %> cr list dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> cr list dHD9ZmkOPnfy9hWCsaQB --status all',
    '<%= config.bin %> cr list dHD9ZmkOPnfy9hWCsaQB --status merged --json',
  ],
  columns: ['number', 'id', 'status', 'subject', 'outdated', 'createdBy.displayName', 'updatedAt'],
  flags: { status: statusFlag() },
  prepare: dropAll,
  call: allStatuses('listChangeRequestsForSpace'),
});
