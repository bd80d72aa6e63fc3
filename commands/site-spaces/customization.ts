import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteSpaceCustomizationById',
  description: "Show a site space's customization overrides (what it changes from the site's customization)",
  examples: [
    '<%= config.bin %> site-spaces customization szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e',
    '<%= config.bin %> site-spaces customization szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --json',
  ],
  orgFlag: true,
});
