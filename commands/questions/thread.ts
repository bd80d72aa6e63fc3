import { operationCommand } from '../_lib/operation-command.js';

// `docs questions thread SITE ANSWER`: the conversation an answer is part of (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'getSiteQuestionAnswerThreadById',
  description: 'Show the conversation an answer is part of: its first answer and every follow-up, in order',
  examples: [
    '<%= config.bin %> questions thread szK9Qp2mTtR4bLx0aVn1 org123.rAbCdEfGhIjKlMnOpQrS',
    '<%= config.bin %> questions thread szK9Qp2mTtR4bLx0aVn1 org123.rAbCdEfGhIjKlMnOpQrS --json',
  ],
  orgFlag: true,
  columns: ['id', 'input.raw', 'answered', 'createdAt'],
});
