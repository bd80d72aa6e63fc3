import { changeRequestNamed } from '../_lib/names.js';
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
  confirm: async (p, f, t) =>
    f.status === 'archived' ? `Archive ${await changeRequestNamed(t, p.spaceId!, p.changeRequestId!)}? (reopen with --status open)` : undefined,
});
