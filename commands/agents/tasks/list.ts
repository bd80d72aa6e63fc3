import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listAgentTasks',
  description: 'List the agent tasks: one per issues cluster of the conversations, to answer in the docs',
  examples: [
    '<%= config.bin %> agents tasks list',
    '<%= config.bin %> agents tasks list --status backlog --status started',
    '<%= config.bin %> agents tasks list --cluster kP3xQ9mZ2vL8nR5tW1yA --json',
  ],
  columns: ['id', 'status', 'title', 'space', 'changeRequest', 'updatedAt'],
  flags: { space: Flags.string({ description: 'Only the tasks acting on this space (id)' }) },
  orgFlag: true,
});
