import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getAgentTask',
  description: 'Show an agent task: what to answer, in which space, and its status',
  examples: ['<%= config.bin %> agents tasks get kP3xQ9mZ2vL8nR5tW1yA', '<%= config.bin %> agents tasks get kP3xQ9mZ2vL8nR5tW1yA --json'],
  summary: false,
  orgFlag: true,
});
