import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listPagesForSiteFinding',
  description: 'List the pages a finding concerns (the page with a broken link, the nearest pages to a content gap)',
  examples: ['<%= config.bin %> sites context findings pages szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3'],
  orgFlag: true,
  columns: ['spaceId', 'page.id', 'page.title', 'page.path'],
});
