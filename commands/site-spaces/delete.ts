import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteSpaceById',
  description: 'Remove a space from a site (the space stays)',
  examples: ['<%= config.bin %> site-spaces delete szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --yes'],
  orgFlag: true,
  confirm: (p) => `Remove site space ${p.siteSpaceId} from the site? (the space stays)`,
  done: (_s, p) =>
    `Removed site space ${p.siteSpaceId} from site ${p.siteId} (the space stays; add it back with: docs site-spaces add ${p.siteId} --space-id SPACE_ID).`,
  missing: (p) => `site space ${p.siteSpaceId} not found in site ${p.siteId}: nothing removed`,
});
