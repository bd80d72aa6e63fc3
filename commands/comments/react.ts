import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { CommentCommand, crFlag, replyFlag } from '../_lib/comments.js';

export default class CommentsReact extends CommentCommand {
  static operations = ['updateCommentInSpace', 'updateCommentInChangeRequest', 'updateCommentReplyInSpace', 'updateCommentReplyInChangeRequest'];
  static summary = 'React to a comment (or a reply) with emoji; --remove takes your reactions back';
  static description =
    'API: PUT /v1/spaces/{spaceId}/comments/{commentId} (updateCommentInSpace) with addedReactions / removedReactions, or the reply and change-request forms. You react once per emoji.';
  static examples = [
    '<%= config.bin %> comments react dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a 👍 🎉',
    '<%= config.bin %> comments react dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a 👍 --remove --change-request 4',
    '<%= config.bin %> comments react dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a 👀 --reply Lm3nB7vQ0wXz5rT9yU2e',
  ];
  static strict = false;
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    commentId: Args.string({ description: 'The comment (its ID)', required: true }),
    emoji: Args.string({ description: 'one or more emoji', required: true }),
  };
  static flags = { ...crFlag, ...replyFlag, remove: Flags.boolean({ description: 'remove these reactions of yours instead of adding them' }) };

  async run(): Promise<unknown> {
    const { args, argv, flags } = await this.parse(CommentsReact);
    const emoji = (argv as string[]).slice(2);
    const cr = flags['change-request'];
    const path = this.where(args.spaceId, cr, { commentId: args.commentId, ...(flags.reply !== undefined ? { commentReplyId: flags.reply } : {}) });
    const body = flags.remove ? { removedReactions: emoji } : { addedReactions: emoji };
    const { body: r } = await this.call(await this.transport(flags), this.op(flags.reply !== undefined ? 'updateCommentReply' : 'updateComment', cr), {
      path,
      body,
    });
    if (!this.jsonEnabled()) {
      const all = ((r as any).reactions as { emoji: string; count: number }[]).map((x) => `${x.emoji} ${x.count}`).join('  ');
      this.log(`Reactions: ${all || 'none'}`);
    }
    return r;
  }
}
