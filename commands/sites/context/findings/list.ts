import { operationCommand } from '../../../_lib/operation-command.js';

// `docs sites context findings list SITE`: what the scans found on a site, the most recently updated first (docs/manual/site-findings.md).
export default operationCommand({
  operationId: 'listSiteFindings',
  description:
    "List a site's findings (content gaps, broken links, outdated pages): open, done and canceled ones; --status candidate for those not yet confirmed",
  examples: [
    '<%= config.bin %> sites context findings list szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> sites context findings list szK9Qp2mTtR4bLx0aVn1 --type broken-link --order-by severity',
    '<%= config.bin %> sites context findings list szK9Qp2mTtR4bLx0aVn1 --source questions --json',
  ],
  orgFlag: true,
  columns: ['id', 'type', 'severity', 'status', 'title', 'changeRequests'],
});
