import { operationCommand } from '../../_lib/operation-command.js';
import { setupBody, setupFlags } from '../../_lib/channel-setup.js';

export default operationCommand({
  operationId: 'createSiteChannel',
  description:
    "Connect the site's agent to a tool: --type slack|linear|github|discord, --allow where it may act, --role support (answers) or collaborator (also opens change requests)",
  examples: ['<%= config.bin %> sites channels create szK9Qp2mTtR4bLx0aVn1 --type slack --allow support --allow "help-*" --role support'],
  orgFlag: true,
  flags: { ...setupFlags, type: { ...setupFlags.type, required: true } },
  prepare: (req, flags) => {
    req.body ??= {};
    setupBody(req.body, flags);
  },
  summary: (b) => `✓ Added a ${b.type} channel (${b.id}), role ${b.role}, ${b.status}`,
});
