import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteShareLinkById',
  description: 'Delete a share link',
  examples: ['<%= config.bin %> sites share-links delete szK9Qp2mTtR4bLx0aVn1 lnkR2pQ8vXa1ZtY6HcMb --yes'],
  orgFlag: true,
  confirm: (p) => `Delete share link ${p.shareLinkId}? (its URL stops working)`,
  done: (_s, p) => `Deleted share link ${p.shareLinkId} of site ${p.siteId} (its URL no longer works; not restorable).`,
  missing: (p) => `share link ${p.shareLinkId} not found in site ${p.siteId}: nothing deleted`,
});
