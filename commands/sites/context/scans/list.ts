import { operationCommand } from '../../../_lib/operation-command.js';

// `docs sites context scans list SITE`: a site's scans, the most recent first (docs/manual/site-findings.md#when-scans-run).
export default operationCommand({
  operationId: 'listSiteScans',
  description: "List a site's scans, the most recent first: status and the findings each found by severity",
  examples: [
    '<%= config.bin %> sites context scans list szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> sites context scans list szK9Qp2mTtR4bLx0aVn1 --status failed',
  ],
  orgFlag: true,
  columns: ['id', 'status', 'findings.high', 'findings.medium', 'findings.low', 'createdAt'],
});
