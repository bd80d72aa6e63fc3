import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getReusableContentInRevisionById',
  description: 'Show a reusable content block of a space as it was in one revision',
  examples: ['<%= config.bin %> revisions reusable dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 kR3mQ8vZpL2xW7tYb1Nc'],
});
