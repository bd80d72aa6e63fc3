import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteChannelById',
  description: "Remove a site's agent channel",
  examples: ['<%= config.bin %> sites channels delete szK9Qp2mTtR4bLx0aVn1 chnQ8vXa1ZtY6HcMbR2p --yes'],
  orgFlag: true,
  confirm: (p) => `Remove channel ${p.siteChannelId} from site ${p.siteId}?`,
  done: (_s, p) => `Removed channel ${p.siteChannelId}.`,
  missing: (p) => `channel ${p.siteChannelId} not found in site ${p.siteId}: nothing removed`,
});
