import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'syncSiteContextConnection',
  description: "Sync a site's context connection now: a website is crawled and its records replaced (or the connection marked failed, with why)",
  examples: ['<%= config.bin %> sites context connections sync szK9Qp2mTtR4bLx0aVn1 ctxQ8vXa1ZtY6HcMbR2p'],
  orgFlag: true,
  done: (_s, p) => `Synced connection ${p.siteContextConnectionId} (docs sites context connections get shows its status and records).`,
});
