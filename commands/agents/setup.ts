import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getAgentSetupState',
  description: "Show the organization's agents setup state: agent tasks by status, and the conversations, issues and clusters the agent holds",
  examples: ['<%= config.bin %> agents setup', '<%= config.bin %> agents setup --org r55bjk0VeuQGpJpb7mcG --json'],
  orgFlag: true,
});
