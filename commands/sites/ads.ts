import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteAdsById',
  description: 'Submit a site for ads review, change its topic, or turn ads off (no ad network here: the settings are stored and shown)',
  examples: [
    '<%= config.bin %> sites ads sTe2wHmVa9Lq0xYz1bCd --status in-review --topic webdev',
    '<%= config.bin %> sites ads sTe2wHmVa9Lq0xYz1bCd --status disabled',
  ],
  orgFlag: true,
  done: 'Ads settings saved',
});
