import { operationCommand } from '../_lib/operation-command.js';

// `docs styleguides runs SITE`: a site's style guide check runs, the most recent first (docs/manual/styleguides.md#check-runs).
export default operationCommand({
  operationId: 'listSiteStyleguideRuns',
  description: "List a site's style guide check runs, the most recent first, with how many findings each had",
  examples: ['<%= config.bin %> styleguides runs szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> styleguides runs szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
  columns: ['id', 'spaces', 'findingsTotal', 'createdAt', 'createdBy.displayName'],
});
