import { operationCommand } from '../_lib/operation-command.js';

// `docs questions stats SITE`: a site's questions and answers counted (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'getSiteQuestionStats',
  description: "Count a site's questions and answers: answered or not, by type, by relevance, by week",
  examples: [
    '<%= config.bin %> questions stats szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> questions stats szK9Qp2mTtR4bLx0aVn1 --from 2026-11-01T00:00:00Z --json',
  ],
  orgFlag: true,
  summary: false,
});
