import { descriptionFlag } from '../_lib/markdown-flag.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateChangeRequestById',
  description: "Change a change request's subject, status (draft, open, archived) or description",
  examples: [
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --subject "Fix the install guide"',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --status draft',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --status archived --json',
    '<%= config.bin %> cr edit dHD9ZmkOPnfy9hWCsaQB 4 --description why.md',
  ],
  flags: { description: descriptionFlag() },
});
