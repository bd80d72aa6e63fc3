import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteSpaceById',
  description: 'Remove a space from a site (the space stays)',
  examples: ['<%= config.bin %> site-spaces delete szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --yes'],
  orgFlag: true,
  confirm: (p) => `Remove site space ${p.siteSpaceId} from the site? (the space stays)`,
  done: (status) => (status === 205 ? 'Removed.' : 'Nothing to remove.'),
});
