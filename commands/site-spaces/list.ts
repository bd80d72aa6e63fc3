import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteSpaces',
  description: 'List the site spaces of a site (--default: only defaults; --no-default: the others)',
  examples: ['<%= config.bin %> site-spaces list szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> site-spaces list szK9Qp2mTtR4bLx0aVn1 --default'],
  orgFlag: true,
  columns: ['id', 'title', 'path', 'section', 'default', 'hidden', 'condition'],
});
