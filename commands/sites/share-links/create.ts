import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createSiteShareLink',
  description: 'Create a share link: its URL opens a share-link site',
  examples: ['<%= config.bin %> sites share-links create szK9Qp2mTtR4bLx0aVn1 --name "Partners"'],
  orgFlag: true,
});
