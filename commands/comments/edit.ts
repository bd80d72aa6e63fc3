import * as Args from '@oclif/core/args';
import { commentArgs, CommentCommand, crFlag, replyFlag, textFlags } from '../_lib/comments.js';

export default class CommentsEdit extends CommentCommand {
  static operations = ['updateCommentInSpace', 'updateCommentInChangeRequest', 'updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest'];
  static summary = 'Replace the text of your comment (or of your reply with --reply)';
  static description =
    'API: PUT /v1/spaces/{spaceId}/comments/{commentId} (updateCommentInSpace) with a body, or the reply and change-request forms. Only the author may; it sets editedAt.';
  static examples = [
    '<%= config.bin %> comments edit dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a "The install steps miss the token part (step 3)."',
    '<%= config.bin %> comments edit dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --reply Lm3nB7vQ0wXz5rT9yU2e --change-request 4 --file reply.md',
  ];
  static args = { ...commentArgs, text: Args.string({ description: 'the new text (markdown); or give --file', ignoreStdin: true }) };
  static flags = { ...crFlag, ...replyFlag, ...textFlags };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsEdit);
    const cr = flags['change-request'];
    const body = { body: { markdown: this.text(args.text, flags.file) } };
    const path = this.where(args.spaceId, cr, { commentId: args.commentId, ...(flags.reply !== undefined ? { commentReplyId: flags.reply } : {}) });
    const { body: r } = await this.call(await this.transport(flags), this.op(flags.reply !== undefined ? 'updateCommentReply' : 'updateComment', cr), {
      path,
      body,
    });
    if (!this.jsonEnabled()) this.log(`Edited ${flags.reply !== undefined ? `reply ${flags.reply}` : `comment ${args.commentId}`}.`);
    return r;
  }
}
