import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteSectionGroups',
  description: 'List the section groups of a site',
  examples: ['<%= config.bin %> section-groups list szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['id', 'title', 'sectionGroup', 'icon'],
});
