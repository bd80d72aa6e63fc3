import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteChannelById',
  description: "Show a site's agent channel: its tool, allow list, role and status",
  examples: ['<%= config.bin %> sites channels get szK9Qp2mTtR4bLx0aVn1 chnQ8vXa1ZtY6HcMbR2p'],
  orgFlag: true,
});
