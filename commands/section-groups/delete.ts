import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteSectionGroupById',
  description: 'Delete a section group (what it holds takes its place)',
  examples: ['<%= config.bin %> section-groups delete szK9Qp2mTtR4bLx0aVn1 grpW3nB8rTq5LcYx0KdM --yes'],
  orgFlag: true,
  confirm: (p) => `Delete section group ${p.siteSectionGroupId}? (its sections stay)`,
  done: (_s, p) => `Deleted section group ${p.siteSectionGroupId} of site ${p.siteId} (its sections stay; not restorable).`,
  missing: (p) => `section group ${p.siteSectionGroupId} not found in site ${p.siteId}: nothing deleted`,
});
