import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'prewarmSiteSearch',
  description: "Bring a site's search indexes up to its spaces' current content, so the next search only reads",
  examples: ['<%= config.bin %> sites search-prewarm szK9Qp2mTtR4bLx0aVn1'],
  done: 'Search of the site is warm',
  orgFlag: true,
});
