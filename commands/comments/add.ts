import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { CommentCommand, crFlag, textFlags } from '../_lib/comments.js';

export default class CommentsAdd extends CommentCommand {
  static operations = ['postCommentInSpace', 'postCommentInChangeRequest'];
  static summary = 'Post a comment (markdown) on a space or a change request, optionally on one of its pages';
  static description =
    'API: POST /v1/spaces/{spaceId}/comments (postCommentInSpace), or .../change-requests/{changeRequestId}/comments (postCommentInChangeRequest).';
  static examples = [
    '<%= config.bin %> comments add dHD9ZmkOPnfy9hWCsaQB "The install steps miss the **token** part."',
    '<%= config.bin %> comments add dHD9ZmkOPnfy9hWCsaQB "Why move this page?" --change-request 4 --page 3qZcJmWxW8b4nUdHhXhQ',
    'git log -1 --format=%B | <%= config.bin %> comments add dHD9ZmkOPnfy9hWCsaQB --file - --json',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    text: Args.string({ description: 'the comment (markdown); or give --file', ignoreStdin: true }),
  };
  static flags = {
    ...crFlag,
    ...textFlags,
    page: Flags.string({ description: 'the page (id) the comment is about' }),
    node: Flags.string({ description: 'the block (id) of that page the comment is about (needs --page)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CommentsAdd);
    const cr = flags['change-request'];
    const body = {
      body: { markdown: this.text(args.text, flags.file) },
      ...(flags.page !== undefined ? { page: flags.page } : {}),
      ...(flags.node !== undefined ? { node: flags.node } : {}),
    };
    const { body: c } = await this.call(await this.transport(flags), this.op('postComment', cr), { path: this.where(args.spaceId, cr), body });
    if (!this.jsonEnabled()) this.log(`Posted comment ${(c as any).id}${cr === undefined ? '' : ` on change request ${cr}`}.`);
    return c;
  }
}
