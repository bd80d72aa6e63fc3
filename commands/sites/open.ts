import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { openUrl } from '../_lib/opener.js';
import { soleOrganization } from '../_lib/org.js';

export default class SitesOpen extends DocsCommand {
  static summary = "Print a published site's address, and open it in the browser on a terminal";
  static description = 'API: GET /v1/orgs/{organizationId}/sites/{siteId} (getSiteById), its urls.published. Starts nothing: `docs serve` (or `docs sites preview`) serves it.';
  static examples = ['<%= config.bin %> sites open szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites open szK9Qp2mTtR4bLx0aVn1 --json'];
  static args = { siteId: Args.string({ description: 'The site (its ID)', required: true }) };
  static flags = {
    org: Flags.string({ description: 'Organization id (default: $DOCS_ORG, else your only organization)', env: 'DOCS_ORG' }),
  };

  async run(): Promise<{ url: string }> {
    const { args, flags } = await this.parse(SitesOpen);
    const transport = await this.transport(flags);
    const organizationId = flags.org ?? (await soleOrganization(transport));
    const site = (await transport.call('getSiteById', { path: { organizationId, siteId: args.siteId } })).body as { urls: { published?: string } };
    const url = site.urls.published;
    if (!url) throw new DocsError('precondition', `site ${args.siteId} is not published: publish it first (docs sites publish ${args.siteId})`);
    if (!this.jsonEnabled()) {
      this.log(url);
      if (process.stdout.isTTY) openUrl(url);
    }
    return { url };
  }
}
