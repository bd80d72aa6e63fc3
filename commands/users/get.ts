import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getUserById',
  description: 'Show one user (name, email, photo)',
  examples: ['<%= config.bin %> users get uGWWELvns4H2hi8k5YZ3', '<%= config.bin %> users get uGWWELvns4H2hi8k5YZ3 --jq .displayName'],
});
