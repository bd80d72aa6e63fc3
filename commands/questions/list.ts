import { operationCommand } from '../_lib/operation-command.js';

// `docs questions list SITE`: what visitors asked a site, each question once with its stats (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'listSiteQuestions',
  description: 'List the questions a site was asked, each once, with its answers counted (answered, by type, by week)',
  examples: [
    '<%= config.bin %> questions list szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> questions list szK9Qp2mTtR4bLx0aVn1 --answered no --sort stats.answers',
    '<%= config.bin %> questions list szK9Qp2mTtR4bLx0aVn1 --type how-to --json',
  ],
  orgFlag: true,
  columns: ['id', 'question', 'type', 'stats.answers', 'stats.answered.no', 'askedAt'],
});
