import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSpacePageBacklinks',
  changeRequestForm: 'listChangeRequestPageBacklinks',
  description: 'List the pages that link to a page',
  columns: ['page.id', 'page.title', 'space.title'],
  examples: [
    '<%= config.bin %> pages backlinks dHD9ZmkOPnfy9hWCsaQB pg7Hq2KpLw9XbYc3MnE1',
    '<%= config.bin %> pages backlinks dHD9ZmkOPnfy9hWCsaQB pg7Hq2KpLw9XbYc3MnE1 --change-request 4 --json',
  ],
});
