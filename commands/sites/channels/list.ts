import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'listSiteChannels',
  description: "List a site's GitBook Agent channels (Slack, Linear, GitHub, Discord): role, allow list, and whether the tool's integration is installed",
  examples: ['<%= config.bin %> sites channels list szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  columns: ['id', 'type', 'role', 'status'],
});
