import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { fetchChanges, printChanges } from '../_lib/semantic-changes.js';

export default class RevisionChanges extends DocsCommand {
  static operations = ['getRevisionSemanticChanges'];
  static summary = 'Show what a revision brought in against the one it was made on: pages created, edited, moved, deleted; files';
  static description =
    'API: GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes (getRevisionSemanticChanges). A merge revision also names the change request it merged. --json prints the API body.';
  static examples = [
    '<%= config.bin %> revisions changes dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3',
    "<%= config.bin %> revisions changes dHD9ZmkOPnfy9hWCsaQB uGWWELvns4H2hi8k5YZ3 --all --jq '.changes[].type'",
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    revisionId: Args.string({ description: 'The revision (its ID)', required: true }),
  };
  static flags = {
    limit: Flags.integer({ description: 'at most this many changes (default 10)', min: 1 }),
    all: Flags.boolean({ description: 'every change, however many', exclusive: ['limit'] }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(RevisionChanges);
    const body = await fetchChanges(await this.transport(flags), 'getRevisionSemanticChanges', { spaceId: args.spaceId, revisionId: args.revisionId }, flags);
    if (!this.jsonEnabled()) printChanges((s) => this.log(s), body);
    return body;
  }
}
