import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { bodyText, CommentCommand, crFlag, summary } from '../_lib/comments.js';
import { outputOptions, renderList } from '../_lib/render.js';
import { moreHint, pageFlag } from '../_lib/pages.js';

export default class CommentsList extends CommentCommand {
  static operations = ['listCommentsInSpace', 'listCommentsInChangeRequest'];
  static summary = 'List the comments of a space, or of a change request (newest first)';
  static description =
    'API: GET /v1/spaces/{spaceId}/comments (listCommentsInSpace), or .../change-requests/{changeRequestId}/comments (listCommentsInChangeRequest).';
  static examples = [
    '<%= config.bin %> comments list dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> comments list dHD9ZmkOPnfy9hWCsaQB --change-request 4 --status open',
    '<%= config.bin %> comments list dHD9ZmkOPnfy9hWCsaQB --target-page 3qZcJmWxW8b4nUdHhXhQ --author Xk2f9QmL0aTz7WcV1bNp --order asc --json',
  ];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };
  static flags = {
    ...crFlag,
    status: Flags.string({ options: ['all', 'open', 'resolved'], description: 'which comments (default: all)' }),
    order: Flags.string({ options: ['asc', 'desc'], description: 'by posting time (default: desc)' }),
    'target-page': Flags.string({ description: 'only comments on this page (id)' }),
    author: Flags.string({ multiple: true, description: 'only comments by these users (ids; repeat the flag)' }),
    format: Flags.string({ options: ['markdown', 'document'], description: 'body format of --json (default: markdown)' }),
    limit: Flags.integer({ description: 'How many items a page holds (1 to 1000, default 100)', min: 1, max: 1000 }),
    page: pageFlag(),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsList);
    const cr = flags['change-request'];
    // markdown unless asked otherwise: a server may default to the Document form.
    const query: Record<string, unknown> = { format: 'markdown' };
    for (const [k, v] of [
      ['status', flags.status],
      ['order', flags.order],
      ['targetPage', flags['target-page']],
      ['authors', flags.author],
      ['format', flags.format],
      ['limit', flags.limit],
      ['page', flags.page],
    ] as const) {
      if (v !== undefined) query[k] = v;
    }
    const { body } = await this.call(await this.transport(flags), this.op('listComments', cr), { path: this.where(args.spaceId, cr), query });
    const list = body as { items: any[]; count: number; next?: { page: string } };
    if (!this.jsonEnabled()) {
      if (outputOptions().tty) this.log(list.items.length ? list.items.map(summary).join('\n') : 'No comments.');
      else {
        // Through a pipe, as every list: one tab-separated row per comment (id, author, posted,
        // status, replies, first line of the body); "No comments." on stderr.
        const rows = list.items.map((c) => ({ ...c, text: bodyText(c.body).split('\n')[0] }));
        const table = await renderList(rows, ['id', 'postedBy.displayName', 'postedAt', 'status', 'replies', 'text'], 'No comments.');
        if (table) this.log(table);
      }
      moreHint(list);
    }
    return list;
  }
}
