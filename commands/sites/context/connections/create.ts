import { operationCommand } from '../../../_lib/operation-command.js';
import { setupBody, setupFlags } from '../../../_lib/context-setup.js';

export default operationCommand({
  operationId: 'createSiteContextConnection',
  description: 'Add a context connection to a site: --connector api (records pushed to it) or --connector website --url URL (a site crawled on sync)',
  examples: ['<%= config.bin %> sites context connections create szK9Qp2mTtR4bLx0aVn1 --connector website --url https://status.example.com/'],
  orgFlag: true,
  flags: setupFlags,
  prepare: async (req, flags) => {
    req.body ??= {};
    await setupBody(req.body, flags);
  },
  summary: (b) => `✓ Added a ${b.connector} connection (${b.id})${b.setupSettings?.url ? ` for ${b.setupSettings.url}` : ''}, ${b.status}`,
});
