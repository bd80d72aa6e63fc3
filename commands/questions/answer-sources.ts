import { operationCommand } from '../_lib/operation-command.js';

// `docs questions answer-sources SITE ANSWER`: the pages one answer quoted (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'listSiteQuestionAnswerSources',
  description: 'List the pages one answer quoted, with their share of it',
  examples: [
    '<%= config.bin %> questions answer-sources szK9Qp2mTtR4bLx0aVn1 org123.rAbCdEfGhIjKlMnOpQrS',
    '<%= config.bin %> questions answer-sources szK9Qp2mTtR4bLx0aVn1 org123.rAbCdEfGhIjKlMnOpQrS --json',
  ],
  orgFlag: true,
  columns: ['title', 'space', 'page', 'weight'],
});
