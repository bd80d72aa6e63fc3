import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteExternalLinkById',
  description: "Remove a link from the site's navigation",
  examples: ['<%= config.bin %> sites links delete szK9Qp2mTtR4bLx0aVn1 lnkQ8vXa1ZtY6HcMbR2p --yes'],
  orgFlag: true,
  confirm: (p) => `Remove link ${p.siteExternalLinkId} from site ${p.siteId}?`,
  done: (_s, p) => `Removed link ${p.siteExternalLinkId}.`,
  missing: (p) => `external link ${p.siteExternalLinkId} not found in site ${p.siteId}: nothing removed`,
});
