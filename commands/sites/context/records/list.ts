import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteContextRecords',
  description: "List a site's context records (tickets and documents its connections brought in), by --type, --connector, --connection or --topic",
  examples: ['<%= config.bin %> sites context records list szK9Qp2mTtR4bLx0aVn1 --type document'],
  orgFlag: true,
  columns: ['id', 'type', 'title', 'connector', 'urls.source'],
});
