import { operationCommand } from '../../_lib/operation-command.js';
import { setupBody, setupFlags } from '../../_lib/channel-setup.js';

export default operationCommand({
  operationId: 'updateSiteChannelById',
  description: "Change a site's agent channel: its role, or its setup (--type with --allow: the allow list is replaced)",
  examples: ['<%= config.bin %> sites channels update szK9Qp2mTtR4bLx0aVn1 chnQ8vXa1ZtY6HcMbR2p --role collaborator'],
  orgFlag: true,
  flags: setupFlags,
  prepare: (req, flags) => {
    req.body ??= {};
    setupBody(req.body, flags);
  },
  summary: (b) => `✓ Updated channel ${b.id} (${b.type}, role ${b.role})`,
});
