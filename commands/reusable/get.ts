import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getReusableContentById',
  description: "Show a reusable content block of a space's current content: its title and the id of its document (docs documents get)",
  examples: [
    '<%= config.bin %> reusable get dHD9ZmkOPnfy9hWCsaQB kR3mQ8vZpL2xW7tYb1Nc',
    '<%= config.bin %> reusable get dHD9ZmkOPnfy9hWCsaQB kR3mQ8vZpL2xW7tYb1Nc --json',
  ],
});
