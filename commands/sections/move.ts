import { moveCommand } from '../_lib/move-command.js';

export default moveCommand({
  operationId: 'moveSiteSection',
  what: 'site section',
  examples: [
    '<%= config.bin %> sections move szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE --before sctB2nV8xQ4mLp0ZrT6y',
    '<%= config.bin %> sections move szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE   # to the end',
  ],
  sibling: 'its ID',
  pointer: (id) => ({ type: 'site-section', siteSection: id }),
});
