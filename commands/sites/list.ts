import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSites',
  description: 'List the docs sites of an organization',
  examples: [
    '<%= config.bin %> sites list',
    '<%= config.bin %> sites list --published --title docs',
    '<%= config.bin %> sites list --space dHD9ZmkOPnfy9hWCsaQB --json',
  ],
  orgFlag: true,
  columns: ['id', 'title', 'visibility', 'published', 'siteSpaces', 'basename'],
});
