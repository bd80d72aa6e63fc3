import { siteNamed } from '../_lib/names.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteById',
  description: 'Delete a docs site with its sections and site spaces (the spaces stay)',
  examples: ['<%= config.bin %> sites delete szK9Qp2mTtR4bLx0aVn1 --yes'],
  orgFlag: true,
  confirm: async (p, _f, t) => `Delete ${await siteNamed(t, p.organizationId!, p.siteId!)} with its sections and site spaces? (its spaces stay)`,
  done: (_s, p) => `Deleted site ${p.siteId} with its sections and site spaces (the spaces stay; not restorable).`,
  missing: (p) => `site ${p.siteId} not found: nothing deleted`,
});
