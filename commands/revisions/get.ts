import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getRevisionById',
  description: 'Show one revision of a space: its parents, pages, files and how it was made',
  examples: [
    '<%= config.bin %> revisions get dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3',
    '<%= config.bin %> revisions get dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 --jq .parents',
  ],
});
