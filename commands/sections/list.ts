import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteSections',
  description: 'List the sections of a site, in structure order',
  examples: ['<%= config.bin %> sections list szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['id', 'title', 'path', 'default', 'sectionGroup', 'condition'],
});
