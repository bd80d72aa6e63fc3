import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { openUrl } from '../_lib/opener.js';
import { soleOrganization } from '../_lib/org.js';

/** Whether anything answers HTTP at `url` within a second (a local server, usually). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

export default class SitesOpen extends DocsCommand {
  static operations = ['getSiteById'];
  static summary = "Print a published site's address, and open it in the browser on a terminal";
  static description =
    'API: GET /v1/orgs/{organizationId}/sites/{siteId} (getSiteById), its urls.published. Starts nothing: `docs serve` (or `docs sites preview`) serves it; read from a data directory with nothing serving the address, it says so on stderr (and opens nothing).';
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
      // Read in-process: no server holds this data directory (it would have been asked instead),
      // so the address is where `docs serve` would serve it, and whatever answers there now serves
      // other data. Say how to start one rather than open a dead (or wrong) page. A PostgreSQL
      // store has no lock: there, ask the address.
      if (!transport.remote && (transport.target !== 'PostgreSQL store' || !(await answers(url)))) {
        process.stderr.write(
          `Nothing serves ${new URL(url).origin} now: start the server with \`docs serve\`, or serve this site alone with \`docs sites preview ${args.siteId}\` (it prints the address).\n`,
        );
        return { url };
      }
      if (process.stdout.isTTY) openUrl(url);
    }
    return { url };
  }
}
