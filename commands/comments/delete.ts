import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { commentArgs, CommentCommand, crFlag, replyFlag } from '../_lib/comments.js';

export default class CommentsDelete extends CommentCommand {
  static summary = 'Delete a comment with its replies (or one reply with --reply): its author or an admin';
  static description = 'API: DELETE /v1/spaces/{spaceId}/comments/{commentId} (deleteCommentInSpace), or the reply and change-request forms. Asks on a terminal unless --yes.';
  static examples = [
    '<%= config.bin %> comments delete dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --yes',
    '<%= config.bin %> comments delete dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --reply Lm3nB7vQ0wXz5rT9yU2e --change-request 4',
  ];
  static args = commentArgs;
  static flags = { ...crFlag, ...replyFlag, yes: Flags.boolean({ char: 'y', description: 'Do not ask for confirmation' }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsDelete);
    const cr = flags['change-request'];
    const reply = flags.reply;
    const what = reply !== undefined ? `reply ${reply}` : `comment ${args.commentId} and its replies`;
    if (!flags.yes && process.stdin.isTTY && process.stdout.isTTY) {
      const { confirm } = await import('@inquirer/prompts');
      if (!(await confirm({ message: `Delete ${what}?`, default: false }))) throw new DocsError('conflict', 'cancelled');
    }
    const path = this.where(args.spaceId, cr, { commentId: args.commentId, ...(reply !== undefined ? { commentReplyId: reply } : {}) });
    const { status } = await this.call(await this.transport(flags), this.op(reply !== undefined ? 'deleteCommentReply' : 'deleteComment', cr), { path });
    if (!this.jsonEnabled()) this.log(status === 205 ? `Deleted ${what}.` : `Nothing to delete: no ${reply !== undefined ? `reply ${reply}` : `comment ${args.commentId}`}.`);
    return undefined;
  }
}
