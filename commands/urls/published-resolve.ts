import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'resolvePublishedContentByUrl',
  description: 'The same as `urls published`, the visitor given in the body: a signed token (jwtToken) and unsigned claims the site declares (unsignedClaims)',
  examples: [
    '<%= config.bin %> urls published-resolve --url http://127.0.0.1:7780/sites/acme/handbook/guides/setup --json',
    '<%= config.bin %> urls published-resolve --url http://127.0.0.1:7780/sites/acme/handbook --visitor \'{"unsignedClaims":{"plan":"pro"}}\' --jq .pathname',
  ],
  summary: false,
});
