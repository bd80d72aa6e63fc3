import { DocsError } from '../../../../src/kernel/errors.js';
import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'testSiteContextConnection',
  description: "Check that a site's context connection reaches its source (a website: one request to its address); changes nothing",
  examples: ['<%= config.bin %> sites context connections test szK9Qp2mTtR4bLx0aVn1 ctxQ8vXa1ZtY6HcMbR2p'],
  orgFlag: true,
  summary: (b) => {
    // A failed check is an answer of the API, not an error: the command still says so with its exit code.
    if (!b.success) throw new DocsError('precondition', `✗ the connection does not reach its source: ${b.error ?? 'no reason given'}`);
    return '✓ The connection reaches its source';
  },
});
