import { operationCommand } from '../_lib/operation-command.js';

// `docs questions answers SITE`: the answers a site gave, the newest first (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'listSiteQuestionAnswers',
  description: 'List the answers a site gave (asks and AI responses), the newest first',
  examples: [
    '<%= config.bin %> questions answers szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> questions answers szK9Qp2mTtR4bLx0aVn1 --answered no',
    '<%= config.bin %> questions answers szK9Qp2mTtR4bLx0aVn1 --question org123.qAbCdEfGhIjKlMnOpQrS --json',
  ],
  orgFlag: true,
  columns: ['id', 'input.raw', 'answered', 'helpfulness', 'createdAt'],
});
