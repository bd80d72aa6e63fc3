import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { outputOptions, renderList } from '../_lib/render.js';

export default class PagesList extends DocsCommand {
  static summary = "List a space's pages as a tree (current revision)";
  static description = 'API: GET /v1/spaces/{spaceId}/content/pages (listPages). --json prints the API body.';
  static examples = ['<%= config.bin %> pages list dHD9ZmkOPnfy9hWCsaQB', '<%= config.bin %> pages list dHD9ZmkOPnfy9hWCsaQB --json'];
  static args = { spaceId: Args.string({ description: 'The space (its ID)', required: true }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(PagesList);
    const transport = await this.transport(flags);
    const body = (await transport.call('listPages', { path: { spaceId: args.spaceId } })).body as { pages: any[] };
    if (!this.jsonEnabled() && !outputOptions().tty) {
      // Through a pipe, as every list: one tab-separated row per page, depth first (id, title,
      // path, type), no indentation; "No pages." on stderr.
      const rows: any[] = [];
      const flat = (pages: any[]): void => pages.forEach((p) => (rows.push(p), flat(p.pages ?? [])));
      flat(body.pages);
      const table = await renderList(rows, ['id', 'title', 'path', 'type'], 'No pages.');
      if (table) this.log(table);
    } else if (!this.jsonEnabled()) {
      const walk = (pages: any[], depth: number): void => pages.forEach((p) => (this.log(`${p.id}  ${'  '.repeat(depth)}${p.emoji ? p.emoji + ' ' : ''}${p.title}  (${p.path ?? p.href ?? ''})`), walk(p.pages ?? [], depth + 1)));
      if (!body.pages.length) this.log('No pages.');
      walk(body.pages, 0);
    }
    return body;
  }
}
