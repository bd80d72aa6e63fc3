import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { renderList } from '../_lib/render.js';

// The reusable content blocks of a space: the `reusableContents` of a revision (the space's
// current one, one by id, or a change request's). docs/manual/reusable-content.md
export default class ReusableList extends DocsCommand {
  static summary = 'List the reusable content blocks of a space (its current content, a revision, or a change request)';
  static description =
    'API: the reusableContents of GET /v1/spaces/{spaceId}/content (getCurrentRevision), of a revision with --revision (getRevisionById), of a change request with --cr (getRevisionOfChangeRequestById). --json prints the blocks as { items }.';
  static examples = [
    '<%= config.bin %> reusable list dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> reusable list dHD9ZmkOPnfy9hWCsaQB --cr 3',
    "<%= config.bin %> reusable list dHD9ZmkOPnfy9hWCsaQB --json --jq '.items[].title'",
  ];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };
  static flags = {
    revision: Flags.string({ description: 'a revision of the space (its ID) instead of its current content', exclusive: ['cr'] }),
    cr: Flags.string({ description: 'a change request of the space (its ID or number) instead of its current content' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ReusableList);
    const t = await this.transport(flags);
    const path: Record<string, string> = { spaceId: args.spaceId };
    const op = flags.revision ? 'getRevisionById' : flags.cr ? 'getRevisionOfChangeRequestById' : 'getCurrentRevision';
    if (flags.revision) path.revisionId = flags.revision;
    if (flags.cr) path.changeRequestId = flags.cr;
    const rev = (await t.call(op, { path, query: { metadata: false } })).body as { reusableContents?: { id: string; title: string; document?: string }[] };
    const items = rev.reusableContents ?? [];
    if (!this.jsonEnabled()) {
      const table = await renderList(items, ['id', 'title', 'document'], 'No reusable content.');
      if (table) this.log(table);
    }
    return { items };
  }
}
