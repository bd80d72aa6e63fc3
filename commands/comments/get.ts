import * as Flags from '@oclif/core/flags';
import { bodyText, commentArgs, CommentCommand, crFlag, replyFlag, summary } from '../_lib/comments.js';

export default class CommentsGet extends CommentCommand {
  static operations = [
    'getCommentInSpace',
    'getCommentInChangeRequest',
    'getCommentReplyInSpace',
    'getCommentReplyInChangeRequest',
    'listCommentRepliesInSpace',
    'listCommentRepliesInChangeRequest',
  ];
  static summary = 'Show a comment and its replies (or one reply with --reply)';
  static description =
    'API: GET /v1/spaces/{spaceId}/comments/{commentId} (getCommentInSpace) and .../replies (listCommentRepliesInSpace), or the change-request forms; --json prints the comment (or the reply).';
  static examples = [
    '<%= config.bin %> comments get dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a',
    '<%= config.bin %> comments get dHD9ZmkOPnfy9hWCsaQB Tq0fZ8mWc2LrV7yXkP1a --change-request 4 --format document --json',
  ];
  static args = commentArgs;
  static flags = {
    ...crFlag,
    ...replyFlag,
    format: Flags.string({ options: ['markdown', 'document'], description: 'body format of --json (default: markdown)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsGet);
    const cr = flags['change-request'];
    const transport = await this.transport(flags);
    // Asked for explicitly: a server may default to the Document form (the contract allows it).
    const query = { format: flags.format ?? 'markdown' };
    const path = this.where(args.spaceId, cr, { commentId: args.commentId });
    if (flags.reply !== undefined) {
      const { body } = await this.call(transport, this.op('getCommentReply', cr), { path: { ...path, commentReplyId: flags.reply }, query });
      if (!this.jsonEnabled()) this.log(summary(body));
      return body;
    }
    const { body } = await this.call(transport, this.op('getComment', cr), { path, query });
    if (!this.jsonEnabled()) {
      const c = body as any;
      const full = flags.format === 'document' ? JSON.stringify(c.body?.document, null, 2) : bodyText(c.body);
      this.log(`${c.id}  ${c.postedBy.displayName}  ${c.postedAt}  [${c.status}${c.status === 'resolved' ? ` by ${c.resolvedBy.displayName}` : ''}]`);
      if (c.target.page) this.log(`on page ${c.target.page.id}`);
      this.log(`\n${full}`);
      if (c.reactions.length) this.log(c.reactions.map((r: any) => `${r.emoji} ${r.count}`).join('  '));
      if (c.replies) {
        const replies = (await this.call(transport, this.op('listCommentReplies', cr), { path, query: { limit: 1000, format: 'markdown' } })).body as {
          items: any[];
        };
        this.log(`\n${c.replies} ${c.replies === 1 ? 'reply' : 'replies'}:\n` + replies.items.map(summary).join('\n'));
      }
    }
    return body;
  }
}
