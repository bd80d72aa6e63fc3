import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getContentByUrl',
  description: "What an address of this server's app shows: the collection, or the space with its change request and page (as you may read them)",
  examples: [
    '<%= config.bin %> urls resolve --url http://127.0.0.1:7780/o/6yZr3RyMqly3HeMx6Xkr/s/dHD9ZmkOPnfy9hWCsaQB/guide/setup',
    '<%= config.bin %> urls resolve --url http://127.0.0.1:7780/o/6yZr3RyMqly3HeMx6Xkr/s/dHD9ZmkOPnfy9hWCsaQB/~/changes/4 --jq .changeRequest.status',
  ],
});
