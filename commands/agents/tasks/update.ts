import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateAgentTask',
  description:
    'Change an agent task\'s status: "started" opens a change request for it in its space, "canceled" sets it aside, "backlog" puts a canceled task back',
  examples: [
    '<%= config.bin %> agents tasks update kP3xQ9mZ2vL8nR5tW1yA --status started',
    '<%= config.bin %> agents tasks update kP3xQ9mZ2vL8nR5tW1yA --status canceled --json',
  ],
  summary: (b) => `✓ Agent task ${b.id} is ${b.status}${b.changeRequest ? ` (change request ${b.changeRequest} in space ${b.space})` : ''}`,
  orgFlag: true,
});
