import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createUserNotificationsToken',
  description: 'Make a one-hour token that reads only your own user (what GitBook gives its notifications client)',
  examples: ['<%= config.bin %> users notifications-token', '<%= config.bin %> users notifications-token --jq .token'],
  summary: false,
});
