import * as Args from '@oclif/core/args';
import { commentArgs, CommentCommand, crFlag, textFlags } from '../_lib/comments.js';

export default class CommentsReply extends CommentCommand {
  static operations = ['postCommentReplyInSpace', 'postCommentReplyInChangeRequest'];
  static summary = 'Reply to a comment (markdown)';
  static description = 'API: POST /v1/spaces/{spaceId}/comments/{commentId}/replies (postCommentReplyInSpace), or the change-request form.';
  static examples = [
    '<%= config.bin %> comments reply dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a "Fixed in the next push."',
    '<%= config.bin %> comments reply dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --change-request 4 --file answer.md',
  ];
  static args = { ...commentArgs, text: Args.string({ description: 'the reply (markdown); or give --file', ignoreStdin: true }) };
  static flags = { ...crFlag, ...textFlags };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsReply);
    const cr = flags['change-request'];
    const body = { body: { markdown: this.text(args.text, flags.file) } };
    const { body: r } = await this.call(await this.transport(flags), this.op('postCommentReply', cr), {
      path: this.where(args.spaceId, cr, { commentId: args.commentId }),
      body,
    });
    if (!this.jsonEnabled()) this.log(`Posted reply ${(r as any).id} to comment ${args.commentId}.`);
    return r;
  }
}
