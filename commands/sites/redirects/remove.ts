import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteRedirectById',
  description: 'Remove a redirect from a site',
  examples: ['<%= config.bin %> sites redirects remove szK9Qp2mTtR4bLx0aVn1 rdrQ8vXa1ZtY6HcMbR2p --yes'],
  orgFlag: true,
  confirm: (p) => `Remove redirect ${p.siteRedirectId}? (its source path answers 404 again)`,
  done: (_s, p) => `Removed redirect ${p.siteRedirectId} from site ${p.siteId}.`,
  missing: (p) => `redirect ${p.siteRedirectId} not found in site ${p.siteId}: nothing removed`,
});
