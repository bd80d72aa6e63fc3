import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'triggerChangeRequestsForSiteFinding',
  description:
    'Open a draft change request fixing a finding: a new page quoting the questions and records of a content gap, the broken link rewritten, a note on an outdated page',
  examples: ['<%= config.bin %> sites context findings fix szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3'],
  orgFlag: true,
  done: (_s, p) => `✓ Opened a change request for finding ${p.siteFindingId} (docs sites context findings change-requests ${p.siteId} ${p.siteFindingId})`,
});
