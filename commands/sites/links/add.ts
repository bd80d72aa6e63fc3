import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'addExternalLinkToSite',
  description: "Add a link to another address to the site's navigation (at the root, or in a section group with --parent): http, https or mailto",
  examples: ['<%= config.bin %> sites links add szK9Qp2mTtR4bLx0aVn1 --title "Status page" --url https://status.example.com'],
  orgFlag: true,
  summary: (b) => `✓ Added link "${b.title}" → ${b.url} (${b.id})${b.draft ? ' as a draft' : ''}`,
});
