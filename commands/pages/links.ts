import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listPageLinksInSpace',
  changeRequestForm: 'listPageLinksInChangeRequest',
  description: 'List the links of one page (target, status: ok, broken, in-app)',
  columns: ['status', 'relation', 'targetReference.kind', 'targetReference.page.title', 'targetReference.url'],
  examples: [
    '<%= config.bin %> pages links dHD9ZmkOPnfy9hWCsaQB pg7Hq2KpLw9XbYc3MnE1',
    '<%= config.bin %> pages links dHD9ZmkOPnfy9hWCsaQB pg7Hq2KpLw9XbYc3MnE1 --change-request 4 --json',
  ],
});
