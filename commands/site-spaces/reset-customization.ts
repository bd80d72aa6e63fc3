import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteSpaceCustomizationById',
  description: "Drop a site space's customization overrides: it follows the site's customization again",
  examples: ['<%= config.bin %> site-spaces reset-customization szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e'],
  orgFlag: true,
  done: 'Reset: the site space follows the site customization.',
  missing: (p) => `site space ${p.siteSpaceId} has no customization overrides: nothing removed`,
});
