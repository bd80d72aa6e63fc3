import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { serve } from '../../server/serve.js';
import { DocsError } from '../../src/kernel/errors.js';
import { defaultDataDir } from '../../src/transport/profiles.js';
import { selectTransport } from '../../src/transport/select.js';
import { DocsCommand } from '../_lib/base.js';
import { openUrl } from '../_lib/opener.js';
import { soleOrganization } from '../_lib/org.js';

export default class SitesPreview extends DocsCommand {
  static operations = ['getSiteById'];
  static summary = 'Serve a site on a free loopback port for this data directory (unless a server runs) and print its address';
  static description =
    'Reads the site (getSiteById); if `docs serve` already holds the data directory, prints its address there and exits. Otherwise serves the data directory on 127.0.0.1 and a free port until Ctrl-C.';
  static examples = ['<%= config.bin %> sites preview szK9Qp2mTtR4bLx0aVn1', '<%= config.bin %> sites preview szK9Qp2mTtR4bLx0aVn1 --data ./docs-data'];
  static enableJsonFlag = false;
  static args = { siteId: Args.string({ description: 'The site (its ID)', required: true }) };
  static flags = {
    org: Flags.string({ description: 'Organization id (default: $DOCS_ORG, else your only organization)', env: 'DOCS_ORG' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SitesPreview);
    // A transport of its own (not the command's, which closes at the end): the data directory
    // must be released before this process serves it.
    const transport = await selectTransport({
      apiUrl: flags['api-url'],
      token: flags.token,
      data: flags.data,
      store: flags.store,
      profile: flags.profile,
      notice: (m) => process.stderr.write(m + '\n'),
    });
    let published: string | undefined;
    try {
      const organizationId = flags.org ?? (await soleOrganization(transport));
      const site = (await transport.call('getSiteById', { path: { organizationId, siteId: args.siteId } })).body as {
        urls: { published?: string };
        proxy?: { target: string };
      };
      published = site.proxy?.target ?? site.urls.published;
      if (!published) throw new DocsError('precondition', `site ${args.siteId} is not published: publish it first (docs sites publish ${args.siteId})`);
      if (transport.remote) {
        // A server already serves this data (or the API URL given): nothing to start.
        this.log(published);
        return;
      }
    } finally {
      await transport.close();
    }
    const served = await serve({ dataDir: flags.data ?? defaultDataDir(), store: flags.store, port: 0, host: '127.0.0.1' });
    const here = new URL(published);
    const url = `${served.url}${here.pathname}${here.search}`;
    this.log(url);
    if (process.stdout.isTTY) openUrl(url);
    await new Promise<void>((resolve) => {
      const stop = () => served.close().then(resolve, () => resolve());
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  }
}
