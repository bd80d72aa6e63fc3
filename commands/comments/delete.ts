import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { commentArgs, CommentCommand, crFlag, replyFlag } from '../_lib/comments.js';
import { confirmDestructive } from '../_lib/confirm.js';

export default class CommentsDelete extends CommentCommand {
  static operations = ['deleteCommentInSpace', 'deleteCommentInChangeRequest', 'deleteCommentReplyInSpace', 'deleteCommentReplyInChangeRequest'];
  static summary = 'Delete a comment with its replies (or one reply with --reply): its author or an admin';
  static description =
    'API: DELETE /v1/spaces/{spaceId}/comments/{commentId} (deleteCommentInSpace), or the reply and change-request forms. Asks on a terminal unless --yes.';
  static examples = [
    '<%= config.bin %> comments delete dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --yes',
    '<%= config.bin %> comments delete dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --reply Lm3nB7vQ0wXz5rT9yU2e --change-request 4',
  ];
  static args = commentArgs;
  static flags = { ...crFlag, ...replyFlag, yes: Flags.boolean({ char: 'y', description: 'Confirm without asking (required when not on a terminal)' }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsDelete);
    const cr = flags['change-request'];
    const reply = flags.reply;
    const what = reply !== undefined ? `reply ${reply}` : `comment ${args.commentId} and its replies`;
    await confirmDestructive(`Delete ${what}?`, flags.yes);
    const path = this.where(args.spaceId, cr, { commentId: args.commentId, ...(reply !== undefined ? { commentReplyId: reply } : {}) });
    const { status } = await this.call(await this.transport(flags), this.op(reply !== undefined ? 'deleteCommentReply' : 'deleteComment', cr), { path });
    if (status === 204) throw new DocsError('not_found', `${reply !== undefined ? `reply ${reply}` : `comment ${args.commentId}`} not found: nothing deleted`);
    if (!this.jsonEnabled()) this.log(`Deleted ${what} (not restorable).`);
    return undefined;
  }
}
