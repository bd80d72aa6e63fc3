import { operationCommand } from '../_lib/operation-command.js';

// `docs questions sources SITE QUESTION`: the pages the answers to a question quoted (docs/manual/ask.md#site-questions-and-answers).
export default operationCommand({
  operationId: 'listSiteQuestionSources',
  description: 'List the pages the answers to a question quoted, the most weighty first',
  examples: [
    '<%= config.bin %> questions sources szK9Qp2mTtR4bLx0aVn1 org123.qAbCdEfGhIjKlMnOpQrS',
    '<%= config.bin %> questions sources szK9Qp2mTtR4bLx0aVn1 org123.qAbCdEfGhIjKlMnOpQrS --json',
  ],
  orgFlag: true,
  columns: ['title', 'space', 'page', 'weight'],
});
