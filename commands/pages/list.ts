import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { pageTreeLines } from '../_lib/page-tree.js';
import { outputOptions, renderList } from '../_lib/render.js';

export default class PagesList extends DocsCommand {
  static operations = ['listPages'];
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
      for (const line of pageTreeLines(body.pages)) this.log(line);
    }
    return body;
  }
}
