import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getFileById',
  description: 'Show one file of a space, with its downloadURL (signed, valid for an hour, no token needed)',
  examples: [
    '<%= config.bin %> files get dHD9ZmkOPnfy9hWCsaQB Xb1fHq0zYk2mWvPpLr7s',
    '<%= config.bin %> files get dHD9ZmkOPnfy9hWCsaQB Xb1fHq0zYk2mWvPpLr7s --json',
  ],
});
