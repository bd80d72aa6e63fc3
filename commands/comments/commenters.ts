import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { CommentCommand, crFlag } from '../_lib/comments.js';
import { renderList } from '../_lib/render.js';
import { moreHint, pageFlag } from '../_lib/pages.js';

export default class CommentsCommenters extends CommentCommand {
  static operations = ['listCommentersInSpace', 'listCommentersInChangeRequest'];
  static summary = 'List the members who commented on a change request (or a space), in the order they joined in';
  static description =
    'API: GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters (listCommentersInChangeRequest), or /v1/spaces/{spaceId}/commenters (listCommentersInSpace).';
  static examples = [
    '<%= config.bin %> comments commenters dHD9ZmkOPnfy9hWCsaQB --change-request 4',
    '<%= config.bin %> comments commenters dHD9ZmkOPnfy9hWCsaQB --json',
  ];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };
  static flags = {
    ...crFlag,
    limit: Flags.integer({ description: 'How many items a page holds (1 to 1000, default 100)', min: 1, max: 1000 }),
    page: pageFlag(),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsCommenters);
    const cr = flags['change-request'];
    const query = { ...(flags.limit !== undefined ? { limit: flags.limit } : {}), ...(flags.page !== undefined ? { page: flags.page } : {}) };
    const { body } = await this.call(await this.transport(flags), this.op('listCommenters', cr), { path: this.where(args.spaceId, cr), query });
    const list = body as { items: any[]; next?: { page: string } };
    if (!this.jsonEnabled()) {
      const table = await renderList(list.items, ['id', 'user.displayName', 'user.email', 'role'], 'No commenters.');
      if (table) this.log(table);
      moreHint(list);
    }
    return list;
  }
}
