import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteExternalLinkById',
  description: "Change a link of the site's navigation: title, URL, group (--parent; null: the root), draft, condition",
  examples: ['<%= config.bin %> sites links update szK9Qp2mTtR4bLx0aVn1 lnkQ8vXa1ZtY6HcMbR2p --url https://status.example.com/docs'],
  orgFlag: true,
  summary: (b) => `✓ Updated link "${b.title}" → ${b.url} (${b.id})`,
});
