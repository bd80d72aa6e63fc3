import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';

export default class RevisionsPage extends DocsCommand {
  static operations = ['getPageInRevisionById', 'getPageInRevisionByPath', 'getPageDocumentInRevisionById'];
  static summary = 'Print a page as it was in one revision: its markdown (default) or its Document as JSON';
  static description =
    'API: GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId} (getPageInRevisionById), .../path/{pagePath} (getPageInRevisionByPath) with --path, or .../page/{pageId}/document (getPageDocumentInRevisionById) with --format document.';
  static examples = [
    '<%= config.bin %> revisions page dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 3qZcJmWxW8b4nUdHhXhQ',
    '<%= config.bin %> revisions page dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 --path guides/install',
    '<%= config.bin %> revisions page dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 3qZcJmWxW8b4nUdHhXhQ --format document',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    revisionId: Args.string({ description: 'The revision (its ID)', required: true }),
    pageId: Args.string({ description: 'The page (its ID), or give --path' }),
  };
  static flags = {
    path: Flags.string({ description: 'page path instead of an id (e.g. guides/install)' }),
    format: Flags.string({ options: ['markdown', 'document'], default: 'markdown', description: 'body format' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(RevisionsPage);
    if (!args.pageId === !flags.path) this.error('give a PAGE_ID or --path (one of them)', { exit: 2 });
    const transport = await this.transport(flags);
    const { spaceId, revisionId } = args;
    if (args.pageId && flags.format === 'document') {
      // The Document alone, as the API's document route gives it.
      const doc = (await transport.call('getPageDocumentInRevisionById', { path: { spaceId, revisionId, pageId: args.pageId } })).body;
      if (!this.jsonEnabled()) this.log(JSON.stringify(doc, null, 2));
      return doc;
    }
    const query = { format: flags.format };
    const res = args.pageId
      ? await transport.call('getPageInRevisionById', { path: { spaceId, revisionId, pageId: args.pageId }, query })
      : await transport.call('getPageInRevisionByPath', { path: { spaceId, revisionId, pagePath: flags.path! }, query });
    const page = res.body as any;
    if (!this.jsonEnabled())
      this.log(flags.format === 'document' ? JSON.stringify(page.document, null, 2) : `# ${page.title}\n\n${page.markdown ?? ''}`.trimEnd());
    return page;
  }
}
