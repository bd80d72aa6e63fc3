import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { pageTreeLines } from '../_lib/page-tree.js';

export default class RevisionsPages extends DocsCommand {
  static operations = ['listPagesInRevisionById'];
  static summary = "List a space's pages as a tree, as they were in one revision";
  static description = 'API: GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages (listPagesInRevisionById). --json prints the API body.';
  static examples = [
    '<%= config.bin %> revisions pages dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3',
    '<%= config.bin %> revisions pages dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 --json',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    revisionId: Args.string({ description: 'The revision (its ID)', required: true }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(RevisionsPages);
    const transport = await this.transport(flags);
    const body = (await transport.call('listPagesInRevisionById', { path: args })).body as { pages: any[] };
    if (!this.jsonEnabled()) {
      for (const line of pageTreeLines(body.pages)) this.log(line);
    }
    return body;
  }
}
