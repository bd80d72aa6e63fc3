import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';

export default class PagesGet extends DocsCommand {
  static operations = ['getPageById', 'getPageByPath', 'getPageInChangeRequestById', 'getPageInChangeRequestByPath'];
  static summary = 'Print a page: its markdown (default) or, with --format document, its Document as JSON';
  static description =
    'API: GET /v1/spaces/{spaceId}/content/page/{pageId} (getPageById), or .../content/path/{pagePath} (getPageByPath) with --path; with --change-request, getPageInChangeRequestById / getPageInChangeRequestByPath.';
  static examples = [
    '<%= config.bin %> pages get dHD9ZmkOPnfy9hWCsaQB 3qZcJmWxW8b4nUdHhXhQ',
    '<%= config.bin %> pages get dHD9ZmkOPnfy9hWCsaQB --path guides/install',
    '<%= config.bin %> pages get dHD9ZmkOPnfy9hWCsaQB 3qZcJmWxW8b4nUdHhXhQ --format document',
    '<%= config.bin %> pages get dHD9ZmkOPnfy9hWCsaQB --path guides/install --change-request 4',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    pageId: Args.string({ description: 'The page (its ID), or give --path' }),
  };
  static flags = {
    path: Flags.string({ description: 'page path instead of an id (e.g. guides/install)' }),
    format: Flags.string({ options: ['markdown', 'document'], default: 'markdown', description: 'body format' }),
    'change-request': Flags.string({ char: 'c', description: 'the page as it is in this change request (number or id)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(PagesGet);
    if (!args.pageId === !flags.path) this.error('give a PAGE_ID or --path (one of them)', { exit: 2 });
    const transport = await this.transport(flags);
    const query = { format: flags.format };
    const cr = flags['change-request'];
    const where: Record<string, string> = cr === undefined ? { spaceId: args.spaceId } : { spaceId: args.spaceId, changeRequestId: cr };
    const res = args.pageId
      ? await transport.call(cr === undefined ? 'getPageById' : 'getPageInChangeRequestById', { path: { ...where, pageId: args.pageId }, query })
      : await transport.call(cr === undefined ? 'getPageByPath' : 'getPageInChangeRequestByPath', { path: { ...where, pagePath: flags.path! }, query });
    const page = res.body as any;
    if (!this.jsonEnabled())
      this.log(flags.format === 'document' ? JSON.stringify(page.document, null, 2) : `# ${page.title}\n\n${page.markdown ?? ''}`.trimEnd());
    return page;
  }
}
