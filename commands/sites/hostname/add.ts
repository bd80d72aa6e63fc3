import * as Args from '@oclif/core/args';
import { DocsCommand } from '../../_lib/base.js';
import { orgFlag, organizationOf } from '../../_lib/org.js';
import { checkHostname } from '../../../src/sites/hostnames.js';

export default class SitesHostnameAdd extends DocsCommand {
  static summary = 'Give a site a custom hostname: it answers on it once the name resolves to this server';
  static description =
    `POST /_docs/custom-hostnames (this server's route: the contract has no operation that sets one). The name is checked with this machine's resolver at once (names under .localhost are the loopback); the answer's isActive says whether the site answers on it. Revalidate later with docs sites hostname revalidate.`;
  static examples = ['<%= config.bin %> sites hostname add szK9Qp2mTtR4bLx0aVn1 docs.example.com'];
  static args = {
    siteId: Args.string({ description: 'The site (its ID)', required: true }),
    hostname: Args.string({ description: 'The hostname (docs.example.com)', required: true }),
  };
  static flags = { org: orgFlag() };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(SitesHostnameAdd);
    const hostname = checkHostname(args.hostname, 'HOSTNAME'); // a bad name is refused before anything is sent (exit 2)
    const transport = await this.transport(flags);
    const organization = await organizationOf(flags, transport);
    const h = (await transport.docs('POST', '/_docs/custom-hostnames', { body: { organization, site: args.siteId, hostname } })).body as any;
    if (!this.jsonEnabled())
      this.log(
        h.isActive
          ? `✓ Site ${args.siteId} answers on ${h.hostname}`
          : `✓ Added ${h.hostname} to site ${args.siteId}, not active yet (${h.status}): point the name at this server, then docs sites hostname revalidate ${h.hostname}`,
      );
    return h;
  }
}
