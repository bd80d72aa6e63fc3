import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'regenerateSitePublishingAuthById',
  description: "Make a new private key for a site's visitor tokens: every token signed with the old key stops working at once",
  examples: ['<%= config.bin %> sites auth regenerate szK9Qp2mTtR4bLx0aVn1 --yes'],
  orgFlag: true,
  confirm: (p) => `Regenerate the visitor key of site ${p.siteId}? (every visitor token signed with the current key stops working)`,
  summary: () => '✓ Regenerated the visitor key: tokens signed with the old key no longer open the site (docs sites auth get shows the new one)',
});
