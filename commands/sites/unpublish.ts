import { siteNamed } from '../_lib/names.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'unpublishSite',
  description: 'Take a docs site offline',
  examples: ['<%= config.bin %> sites unpublish szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites unpublish szK9Qp2mTtR4bLx0aVn1 --yes --json'],
  confirm: async (p, _f, t) => `Take ${await siteNamed(t, p.organizationId!, p.siteId!)} offline? (publish it again with: docs sites publish ${p.siteId})`,
  orgFlag: true,
});
