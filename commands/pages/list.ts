import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';

export default class PagesList extends DocsCommand {
  static summary = "List a space's pages as a tree (current revision)";
  static description = 'API: GET /v1/spaces/{spaceId}/content/pages (listPages). --json prints the API body.';
  static examples = ['<%= config.bin %> pages list dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> pages list dHD9ZmkOPnfy9hWCsaQB --json'];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(PagesList);
    const transport = await this.transport(flags);
    const body = (await transport.call('listPages', { path: { spaceId: args.spaceId } })).body as { pages: any[] };
    if (!this.jsonEnabled()) {
      const walk = (pages: any[], depth: number): void => pages.forEach((p) => (this.log(`${p.id}  ${'  '.repeat(depth)}${p.emoji ? p.emoji + ' ' : ''}${p.title}  (${p.path ?? p.href ?? ''})`), walk(p.pages ?? [], depth + 1)));
      if (!body.pages.length) this.log('No pages.');
      walk(body.pages, 0);
    }
    return body;
  }
}
