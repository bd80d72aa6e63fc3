import { operationCommand } from '../_lib/operation-command.js';

// `docs questions get SITE QUESTION`: one question a site was asked, with its stats (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'getSiteQuestionById',
  description: 'Show one question a site was asked, with the stats of its answers',
  examples: [
    '<%= config.bin %> questions get szK9Qp2mTtR4bLx0aVn1 org123.qAbCdEfGhIjKlMnOpQrS',
    '<%= config.bin %> questions get szK9Qp2mTtR4bLx0aVn1 org123.qAbCdEfGhIjKlMnOpQrS --json',
  ],
  orgFlag: true,
  summary: false,
});
