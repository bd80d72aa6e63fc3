import { operationCommand } from '../_lib/operation-command.js';
import { partnerHeaders, partnerKeyFlag } from '../_lib/ads-partner.js';

export default operationCommand({
  operationId: 'adsListSites',
  description: "List the sites in the ads program by status, as the ads partner (with this server's partner key)",
  columns: ['id', 'status', 'topic', 'email', 'url'],
  examples: ['<%= config.bin %> ads sites --partner-key "$DOCS_ADS_PARTNER_KEY"', '<%= config.bin %> ads sites --status live --json'],
  flags: { 'partner-key': partnerKeyFlag() },
  headers: partnerHeaders,
});
