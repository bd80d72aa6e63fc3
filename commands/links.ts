import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from './_lib/base.js';
import { collectPages, type ListBody } from './_lib/pages.js';

export default class Links extends DocsCommand {
  static operations = ['listSpaceLinks', 'listChangeRequestLinks'];
  static summary = "Check the links of a space's pages (or of a change request's, before merging it): ok, broken, in-app";
  static description =
    'API: GET /v1/spaces/{spaceId}/links (listSpaceLinks); with --change-request, GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/links (listChangeRequestLinks): the links of the content the change request would merge, and how many broken ones it introduces. With --fail-on-broken, exits 1 when any link is broken (for CI). --json prints the API body.';
  static examples = [
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB --broken',
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB --fail-on-broken   # CI: exit 1 on a broken link',
    '<%= config.bin %> links dHD9ZmkOPnfy9hWCsaQB --change-request 4 --fail-on-broken   # CI: check a change request before merging it',
  ];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };
  static flags = {
    broken: Flags.boolean({ description: 'list broken links only' }),
    'fail-on-broken': Flags.boolean({ description: 'exit 1 when the space (or the change request) has a broken link' }),
    'change-request': Flags.string({ description: "check this change request's content (number or id) instead of the space's" }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Links);
    const transport = await this.transport(flags);
    const cr = flags['change-request'];
    const crLabel = cr && /^\d+$/.test(cr) ? `#${cr}` : cr;
    const get = async (page?: string) => {
      const query = { limit: 1000, ...(flags.broken ? { status: 'broken' } : {}), ...(page ? { page } : {}) };
      const body = cr
        ? (await transport.call('listChangeRequestLinks', { path: { spaceId: args.spaceId, changeRequestId: cr }, query })).body
        : (await transport.call('listSpaceLinks', { path: { spaceId: args.spaceId }, query })).body;
      return body as ListBody & { stats: any };
    };
    // Every page (a cursor that repeats is stopped); the stats are the whole list's, on each page.
    const { items, stats } = (await collectPages(await get(), get)) as ListBody<any> & { stats: any };
    if (!this.jsonEnabled()) {
      for (const i of items)
        this.log(
          `${String(i.status).padEnd(7)} ${where(i.targetReference)}  <- ${(i.locationReferences ?? []).map((l: any) => (l?.kind === 'page' ? String(l.page?.path ?? where(l)) : where(l))).join(', ')}`,
        );
      const introduced = cr && typeof stats.broken.changeRequest === 'number' ? ` (${stats.broken.changeRequest} introduced by change request ${crLabel})` : '';
      this.log(`${stats.total} links, ${stats.broken.total} broken${introduced}.`);
    }
    // For CI: the list is printed as usual (--json too); only the exit code changes.
    if (flags['fail-on-broken'] && stats.broken.total > 0) {
      process.stderr.write(`Error: ${stats.broken.total} broken link${stats.broken.total === 1 ? '' : 's'}${cr ? ` in change request ${crLabel}` : ''}\n`);
      process.exitCode = 1;
    }
    return { items, stats };
  }
}

/**
 * A content location in words. The contract's locations are of any kind (page, file, URL, user,
 * collection, space, reusable content, OpenAPI spec), for targets and for where links are found
 * (where a page is said by its path alone).
 */
function where(loc: any): string {
  if (!loc || typeof loc !== 'object') return '?';
  if (loc.kind === 'url') return String(loc.url ?? '?');
  const key = loc.kind === 'reusable-content' ? 'reusableContent' : loc.kind === 'openapi' ? 'openAPISpec' : loc.kind;
  const thing = (typeof key === 'string' && loc[key]) || {};
  const name = loc.kind === 'page' ? (thing.path ?? thing.title) : loc.kind === 'user' ? thing.displayName : (thing.name ?? thing.title ?? thing.slug);
  return `${loc.kind ?? '?'} ${name ?? thing.id ?? '?'}`;
}
