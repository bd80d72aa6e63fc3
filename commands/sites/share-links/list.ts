import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteShareLinks',
  description: 'List the share links of a site (admins; their URLs carry the keys)',
  examples: ['<%= config.bin %> sites share-links list szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['id', 'name', 'active', 'urls.published'],
});
