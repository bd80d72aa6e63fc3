import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { outputOptions } from '../_lib/render.js';

const line = (c: any): string => {
  const what = c.page ? `${c.page.title}${c.page.path ? ` (${c.page.path})` : ''}` : `${c.file.name}`;
  const detail =
    c.type === 'page_moved'
      ? `: ${c.parent.before?.title ?? '(root)'} -> ${c.parent.after?.title ?? '(root)'}`
      : c.attributes
        ? `: ${Object.keys(c.attributes).join(', ')}`
        : '';
  return `${c.type.padEnd(12)} ${what}${detail}`;
};

const tsv = (c: any): string => {
  const detail = c.type === 'page_moved' ? `${c.parent.before?.title ?? '(root)'} -> ${c.parent.after?.title ?? '(root)'}` : c.attributes ? Object.keys(c.attributes).join(',') : '';
  return [c.type, c.page?.title ?? c.file?.name ?? '', c.page?.path ?? '', detail].join('\t');
};

export default class CrChanges extends DocsCommand {
  static summary = 'Show what a change request changes: pages created, edited, moved, deleted; files';
  static description = 'API: GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes (getChangeRequestChanges). Compared with the space revision the change request is based on. --json prints the API body.';
  static examples = ['<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3', '<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3 --all', '<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3 --limit 100 --json'];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request id or number', required: true }),
  };
  static flags = {
    limit: Flags.integer({ description: 'at most this many changes (default 10)', min: 1 }),
    all: Flags.boolean({ description: 'every change, however many', exclusive: ['limit'] }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrChanges);
    const transport = await this.transport(flags);
    const query = flags.limit !== undefined ? { limit: flags.limit } : {};
    const path = { spaceId: args.spaceId, changeRequestId: args.changeRequestId };
    let body = (await transport.call('getChangeRequestChanges', { path, query })).body as any;
    // --all: the API answers the first `limit` and how many more; a second call asks for them all.
    if (flags.all && body.more) body = (await transport.call('getChangeRequestChanges', { path, query: { limit: body.changes.length + body.more } })).body;
    if (this.jsonEnabled()) return body;
    // Through a pipe, as every list: tab-separated rows (type, title, path, what changed), the
    // "no changes" note on stderr.
    const tty = outputOptions().tty;
    for (const c of body.changes) this.log(tty ? line(c) : tsv(c));
    if (!body.changes.length) (tty ? this.log('No changes.') : process.stderr.write('No changes.\n'));
    // On stderr, as every list's "more" hint: stdout holds only the changes (a script counts lines).
    if (body.more) process.stderr.write(`Showing ${body.changes.length} of ${body.changes.length + body.more}. More: --limit ${body.changes.length + body.more} (or --all)\n`);
    return body;
  }
}
