import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteRedirects',
  description: 'List the redirects of a site (--draft: the draft ones)',
  examples: [
    '<%= config.bin %> sites redirects list szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> sites redirects list szK9Qp2mTtR4bLx0aVn1 --search guides --order-by source',
  ],
  orgFlag: true,
  columns: ['id', 'source', 'destination.kind', 'permanent', 'draft'],
});
