import { commentArgs, CommentCommand, crFlag } from '../_lib/comments.js';

export default class CommentsReopen extends CommentCommand {
  static operations = ['updateCommentInSpace', 'updateCommentInChangeRequest'];
  static summary = 'Reopen a resolved comment';
  static description =
    'API: PUT /v1/spaces/{spaceId}/comments/{commentId} (updateCommentInSpace) with {"resolved": false}, or the change-request form. Needs the comment level on the space.';
  static examples = [
    '<%= config.bin %> comments reopen dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a',
    '<%= config.bin %> comments reopen dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --json',
  ];
  static args = commentArgs;
  static flags = crFlag;

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsReopen);
    const cr = flags['change-request'];
    const path = this.where(args.spaceId, cr, { commentId: args.commentId });
    const { body } = await this.call(await this.transport(flags), this.op('updateComment', cr), { path, body: { resolved: false } });
    if (!this.jsonEnabled()) this.log(`Comment ${args.commentId} reopened.`);
    return body;
  }
}
