import { descriptionFlag } from '../_lib/markdown-flag.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateChangeRequestById',
  description: "Change a change request's subject, status (draft, open, archived) or description",
  examples: [
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --subject "Fix the install guide"',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --status draft',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --status archived --yes --json',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --description why.md',
  ],
  flags: { description: descriptionFlag() },
  // Archiving closes the change request for reviewers: confirmed like other destructive commands.
  confirm: (p, f) => (f.status === 'archived' ? `Archive change request ${p.changeRequestId} of space ${p.spaceId}? (reopen with --status open)` : undefined),
});
