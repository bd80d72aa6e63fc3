import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getEmbedByUrlInSpace',
  description: 'An embed of an address, for a space you may read (as `urls embed`)',
  examples: ['<%= config.bin %> spaces embed dHD9ZmkOPnfy9hWCsaQB --url https://github.com/acme/api'],
});
