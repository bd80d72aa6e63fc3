import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSitePublishingAuthById',
  description: "Show a site's visitor authentication: the sign-in backend (fallback URL) and the private key that signs visitor tokens",
  examples: ['<%= config.bin %> sites auth get szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
});
