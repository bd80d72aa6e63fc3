import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getFileInRevisionById',
  description: 'Show one file of a space as it was in one revision, with its downloadURL',
  examples: ['<%= config.bin %> revisions file dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 Xb1fHq0zYk2mWvPpLr7s'],
});
