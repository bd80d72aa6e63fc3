import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { partnerHeaders, partnerKeyFlag } from '../_lib/ads-partner.js';

export default operationCommand({
  operationId: 'adsUpdateSite',
  description: 'Set a site in the ads program live (with its zone), rejected, or back to pending, as the ads partner',
  examples: [
    '<%= config.bin %> ads update sTe2wHmVa9Lq0xYz1bCd --status live --zone-id zone-7 --reporting-id rep-7 --partner-key "$DOCS_ADS_PARTNER_KEY"',
    '<%= config.bin %> ads update sTe2wHmVa9Lq0xYz1bCd --status rejected --reason "Too little content"',
  ],
  flags: {
    'partner-key': partnerKeyFlag(),
    // The body is one of three shapes: one flag per field, the server checks the combination.
    status: Flags.string({ description: 'live, rejected or pending', options: ['live', 'rejected', 'pending'], required: true }),
  },
  headers: partnerHeaders,
  done: 'Ads status set',
});
