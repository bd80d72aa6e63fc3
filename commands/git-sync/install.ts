import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'installGitSyncProviderOnTarget',
  description: "Install Git Sync (github or gitlab) on a space or a site; its repositories are those under the server's --git-root",
  examples: [
    '<%= config.bin %> git-sync install --provider github --space dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> git-sync install --provider gitlab --site site_Ab3dE5gH7jK9mN1pQ2rS',
    '<%= config.bin %> git-sync install --provider github --space dHD9ZmkOPnfy9hWCsaQB --site site_Ab3dE5gH7jK9mN1pQ2rS --json',
  ],
  flags: {
    space: Flags.string({ description: "The space to install it on (its ID); with --site, a space of that site managed by the site's installation" }),
    site: Flags.string({ description: 'The site to install it on (its ID)' }),
  },
  summary: (b) =>
    `✓ Installed Git Sync (${b.provider}) on ${b.target.type} ${b.target.type === 'site' ? b.target.siteId : b.target.spaceId}: installation ${b.id} [${b.status}]`,
  prepare: (req, flags) => {
    if (req.body.target === undefined && (flags.space || flags.site))
      req.body.target = flags.space
        ? { type: 'space', spaceId: flags.space, ...(flags.site ? { siteId: flags.site } : {}) }
        : { type: 'site', siteId: flags.site };
  },
});
