import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteVisitorSegments',
  description: "List a site's visitor segments: its events of the last 30 days by the visitors' claims (adaptive content), anonymous visitors in one",
  examples: ['<%= config.bin %> sites visitor-segments szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites visitor-segments szK9Qp2mTtR4bLx0aVn1 --json'],
  orgFlag: true,
  columns: ['title', 'events', 'visitors', 'sessions'],
});
