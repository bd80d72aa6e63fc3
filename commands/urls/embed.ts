import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getEmbedByUrl',
  description: "An embed of an address: this server's pages as links titled after them; any other address as a plain link (never fetched by the server)",
  examples: [
    '<%= config.bin %> urls embed --url http://127.0.0.1:7780/o/6yZr3RyMqly3HeMx6Xkr/s/dHD9ZmkOPnfy9hWCsaQB/guide',
    '<%= config.bin %> urls embed --url https://github.com/acme/api --json',
  ],
});
