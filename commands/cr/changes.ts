import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';

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

export default class CrChanges extends DocsCommand {
  static summary = 'Show what a change request changes: pages created, edited, moved, deleted; files';
  static description = 'API: GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes (getChangeRequestChanges). Compared with the space revision the change request is based on. --json prints the API body.';
  static examples = ['<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3', '<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3 --limit 100 --json'];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request id or number', required: true }),
  };
  static flags = { limit: Flags.integer({ description: 'at most this many changes (default 10)', min: 1 }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrChanges);
    const transport = await this.transport(flags);
    const query = flags.limit !== undefined ? { limit: flags.limit } : {};
    const body = (await transport.call('getChangeRequestChanges', { path: { spaceId: args.spaceId, changeRequestId: args.changeRequestId }, query })).body as any;
    if (!this.jsonEnabled()) {
      for (const c of body.changes) this.log(line(c));
      if (!body.changes.length) this.log('No changes.');
      if (body.more) this.log(`... and ${body.more} more (--limit)`);
    }
    return body;
  }
}
