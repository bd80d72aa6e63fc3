import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getApiInformation',
  description: "The API's version and build date (GET /v1/): this docs server's package version and when it was built",
  examples: ['<%= config.bin %> system info', '<%= config.bin %> system info --api-url http://127.0.0.1:7780 --jq .version'],
});
