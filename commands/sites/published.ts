import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getPublishedContentSite',
  description: 'Show the published profile of a site (what its visitors get)',
  examples: [
    '<%= config.bin %> sites published szK9Qp2mTtR4bLx0aVn1 --json',
    '<%= config.bin %> sites published szK9Qp2mTtR4bLx0aVn1 --share-key 3vQm9XbL2pTt8RkYc0aZnW5sHd1JfE7gU4iO6yKx --json',
  ],
  orgFlag: true,
});
