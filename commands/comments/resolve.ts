import { commentArgs, CommentCommand, crFlag } from '../_lib/comments.js';

export default class CommentsResolve extends CommentCommand {
  static operations = ['updateCommentInSpace', 'updateCommentInChangeRequest'];
  static summary = 'Resolve a comment (it no longer counts as open)';
  static description =
    'API: PUT /v1/spaces/{spaceId}/comments/{commentId} (updateCommentInSpace) with {"resolved": true}, or the change-request form. Needs the comment level on the space.';
  static examples = [
    '<%= config.bin %> comments resolve dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a',
    '<%= config.bin %> comments resolve dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --change-request 4',
  ];
  static args = commentArgs;
  static flags = crFlag;

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsResolve);
    const cr = flags['change-request'];
    const path = this.where(args.spaceId, cr, { commentId: args.commentId });
    const { body } = await this.call(await this.transport(flags), this.op('updateComment', cr), { path, body: { resolved: true } });
    if (!this.jsonEnabled()) this.log(`Comment ${args.commentId} resolved.`);
    return body;
  }
}
