import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listFilesInRevisionById',
  description: 'List the files of a space as they were in one revision',
  examples: [
    '<%= config.bin %> revisions files dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3',
    '<%= config.bin %> revisions files dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 --json',
  ],
  columns: ['id', 'name', 'contentType', 'size'],
});
