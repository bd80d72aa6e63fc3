import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getFileInChangeRequestById',
  description: "Show one file of a change request's content, with its download URL",
  examples: [
    '<%= config.bin %> cr file dHD9ZmkOPnfy9hWCsaQB 4 Xb1fHq0zYk2mWvPpLr7s',
    '<%= config.bin %> cr file dHD9ZmkOPnfy9hWCsaQB 4 Xb1fHq0zYk2mWvPpLr7s --json',
  ],
});
