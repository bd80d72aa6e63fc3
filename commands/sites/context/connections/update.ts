import { operationCommand } from '../../../_lib/operation-command.js';
import { currentConnection, setupBody, setupFlags } from '../../../_lib/context-setup.js';

export default operationCommand({
  operationId: 'updateSiteContextConnectionById',
  description: "Change a site's context connection: its label, filter, usage (--search, --change-requests, --search-boost) or a website's --url",
  examples: ['<%= config.bin %> sites context connections update szK9Qp2mTtR4bLx0aVn1 ctxQ8vXa1ZtY6HcMbR2p --label "Status page"'],
  orgFlag: true,
  flags: setupFlags,
  prepare: async (req, flags, transport) => {
    req.body ??= {};
    await setupBody(req.body, flags, currentConnection(transport, req.path));
  },
  summary: (b) => `✓ Updated connection ${b.id} (${b.connector}, ${b.status})`,
});
