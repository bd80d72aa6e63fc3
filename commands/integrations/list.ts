import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listIntegrations',
  description: 'List integrations (public ones, and those of your organizations), with filters',
  examples: [
    '<%= config.bin %> integrations list',
    '<%= config.bin %> integrations list --search slack --category collaboration',
    '<%= config.bin %> integrations list --owner 6yZr3RyMqly3HeMx6Xkr --target space --json',
  ],
  columns: ['name', 'title', 'version', 'visibility', 'target', 'owner'],
});
