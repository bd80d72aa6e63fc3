import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteAgentSettingsById',
  description: "Show a site's agent settings (its instructions for agents, which its MCP endpoints give them)",
  examples: ['<%= config.bin %> sites agent-settings get szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
});
