import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSubdomain',
  description: 'The organization whose sites are published under this name (its hostname: /sites/<hostname>/<site>); for its members',
  examples: ['<%= config.bin %> subdomains get acme-docs', '<%= config.bin %> subdomains get acme-docs --jq .target.organization'],
});
