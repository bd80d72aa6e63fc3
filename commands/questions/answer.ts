import { operationCommand } from '../_lib/operation-command.js';

// `docs questions answer SITE ANSWER`: one answer a site gave, with its response (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'getSiteQuestionAnswerById',
  description: 'Show one answer a site gave, with the question and the response',
  examples: [
    '<%= config.bin %> questions answer szK9Qp2mTtR4bLx0aVn1 org123.rAbCdEfGhIjKlMnOpQrS',
    '<%= config.bin %> questions answer szK9Qp2mTtR4bLx0aVn1 org123.rAbCdEfGhIjKlMnOpQrS --json',
  ],
  orgFlag: true,
  summary: false,
});
