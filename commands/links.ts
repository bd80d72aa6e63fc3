import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from './_lib/base.js';

export default class Links extends DocsCommand {
  static summary = "Check the links of a space's pages: ok, broken, in-app";
  static description = 'API: GET /v1/spaces/{spaceId}/links (listSpaceLinks). With --fail-on-broken, exits 1 when any link is broken (for CI). --json prints the API body.';
  static examples = [
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB --broken',
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB --fail-on-broken   # CI: exit 1 on a broken link',
  ];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };
  static flags = {
    broken: Flags.boolean({ description: 'list broken links only' }),
    'fail-on-broken': Flags.boolean({ description: 'exit 1 when the space has a broken link' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Links);
    const transport = await this.transport(flags);
    const items: any[] = [];
    let page: string | undefined;
    let stats: any;
    do {
      const query = { limit: 1000, ...(flags.broken ? { status: 'broken' } : {}), ...(page ? { page } : {}) };
      const body = (await transport.call('listSpaceLinks', { path: { spaceId: args.spaceId }, query })).body as any;
      items.push(...body.items);
      stats = body.stats;
      page = body.next?.page;
    } while (page);
    const target = (t: any) => (t?.kind === 'page' ? `page ${t.page.path}` : t?.kind === 'file' ? `file ${t.file.name}` : t?.url ?? '?');
    if (!this.jsonEnabled()) {
      for (const i of items) this.log(`${i.status.padEnd(7)} ${target(i.targetReference)}  <- ${i.locationReferences.map((l: any) => l.page.path).join(', ')}`);
      this.log(`${stats.total} links, ${stats.broken.total} broken.`);
    }
    // For CI: the list is printed as usual (--json too); only the exit code changes.
    if (flags['fail-on-broken'] && stats.broken.total > 0) {
      process.stderr.write(`Error: ${stats.broken.total} broken link${stats.broken.total === 1 ? '' : 's'}\n`);
      process.exitCode = 1;
    }
    return { items, stats };
  }
}
