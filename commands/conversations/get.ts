import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getConversationById',
  description: 'Show a conversation: its messages and metadata',
  examples: [
    '<%= config.bin %> conversations get Q2mVt8cRk1LpZx0aB3dE',
    '<%= config.bin %> conversations get Q2mVt8cRk1LpZx0aB3dE --org r55bjk0VeuQGpJpb7mcG --json',
  ],
  orgFlag: true,
});
