import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteSectionById',
  description: 'Delete a section with its site spaces (the spaces stay)',
  examples: ['<%= config.bin %> sections delete szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE --yes'],
  orgFlag: true,
  confirm: (p) => `Delete section ${p.siteSectionId} with its site spaces?`,
  done: (_s, p) => `Deleted section ${p.siteSectionId} of site ${p.siteId} with its site spaces (the spaces stay; not restorable).`,
  missing: (p) => `section ${p.siteSectionId} not found in site ${p.siteId}: nothing deleted`,
});
