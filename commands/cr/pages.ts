import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { pageTreeLines } from '../_lib/page-tree.js';

export default class CrPages extends DocsCommand {
  static operations = ['listPagesInChangeRequest'];
  static summary = "List a change request's pages as a tree (its current revision)";
  static description = 'API: GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages (listPagesInChangeRequest). --json prints the API body.';
  static examples = ['<%= config.bin %> cr pages dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr pages dHD9ZmkOPnfy9hWCsaQB 4 --json'];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request number or id', required: true }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrPages);
    const transport = await this.transport(flags);
    const body = (await transport.call('listPagesInChangeRequest', { path: { spaceId: args.spaceId, changeRequestId: args.changeRequestId } })).body as {
      pages: any[];
    };
    if (!this.jsonEnabled()) {
      for (const line of pageTreeLines(body.pages)) this.log(line);
    }
    return body;
  }
}
