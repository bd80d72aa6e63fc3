import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from './_lib/base.js';
import { orgFlag, organizationOf } from './_lib/org.js';

export default class Search extends DocsCommand {
  static operations = ['searchSpaceContent', 'searchOrganizationContent'];
  static summary = 'Search the content of a space, or of every space of an organization you can read';
  static description =
    'API: GET /v1/spaces/{spaceId}/search (searchSpaceContent) with --space, else GET /v1/orgs/{organizationId}/search (searchOrganizationContent).';
  static examples = [
    '<%= config.bin %> search "install token" --space dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> search refunds --org r55bjk0VeuQGpJpb7mcG --json',
  ];
  static args = { query: Args.string({ description: 'words to find (at most 512 characters)', required: true }) };
  static flags = {
    space: Flags.string({ description: 'search this space only' }),
    org: orgFlag(),
    limit: Flags.integer({ description: 'at most this many results (1 to 1000)', min: 1, max: 1000 }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Search);
    const transport = await this.transport(flags);
    const query = { query: args.query, ...(flags.limit ? { limit: flags.limit } : {}) };
    const show = (pages: any[], prefix = '') => {
      for (const p of pages) {
        this.log(`${prefix}${p.title}  ${p.path}  (${p.id})`);
        for (const s of p.sections ?? []) this.log(`${prefix}  § ${s.title}: ${s.body}`);
      }
    };
    if (flags.space) {
      const body = (await transport.call('searchSpaceContent', { path: { spaceId: flags.space }, query })).body as any;
      if (!this.jsonEnabled()) body.items.length ? show(body.items) : this.log('No results.');
      return body;
    }
    const organizationId = await organizationOf(flags, transport);
    const body = (await transport.call('searchOrganizationContent', { path: { organizationId }, query })).body as any;
    if (!this.jsonEnabled()) {
      if (!body.items.length) this.log('No results.');
      for (const sp of body.items) this.log(`${sp.title} (${sp.id})`), show(sp.pages, '  ');
    }
    return body;
  }
}
