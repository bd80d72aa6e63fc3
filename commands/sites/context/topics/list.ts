import { operationCommand } from '../../../_lib/operation-command.js';

// `docs sites context topics list SITE`: what a site's questions and records are about (docs/manual/site-findings.md#topics).
export default operationCommand({
  operationId: 'listSiteTopics',
  description: "List a site's topics (its questions and records grouped by what they are about), the largest first, with their findings and question stats",
  examples: [
    '<%= config.bin %> sites context topics list szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> sites context topics list szK9Qp2mTtR4bLx0aVn1 --from 2026-11-01T00:00:00Z --json',
  ],
  orgFlag: true,
  columns: ['id', 'label', 'records', 'questions.total', 'findings.open', 'pages'],
});
