import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSpaceFileBacklinks',
  changeRequestForm: 'listChangeRequestFileBacklinks',
  description: 'List the pages that use a file (image, attachment)',
  columns: ['page.id', 'page.title', 'space.title'],
  examples: [
    '<%= config.bin %> files backlinks dHD9ZmkOPnfy9hWCsaQB Xb1fHq0zYk2mWvPpLr7s',
    '<%= config.bin %> files backlinks dHD9ZmkOPnfy9hWCsaQB Xb1fHq0zYk2mWvPpLr7s --change-request 4 --json',
  ],
});
