import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsCommand } from '../_lib/base.js';
import { fetchChanges, printChanges } from '../_lib/semantic-changes.js';

export default class CrChanges extends DocsCommand {
  static operations = ['getChangeRequestChanges'];
  static summary = 'Show what a change request changes: pages created, edited, moved, deleted; files';
  static description =
    'API: GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes (getChangeRequestChanges). Compared with the space revision the change request is based on. --json prints the API body.';
  static examples = [
    '<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3',
    '<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3 --all',
    '<%= config.bin %> cr changes dHD9ZmkOPnfy9hWCsaQB 3 --limit 100 --json',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request id or number', required: true }),
  };
  static flags = {
    limit: Flags.integer({ description: 'at most this many changes (default 10)', min: 1 }),
    all: Flags.boolean({ description: 'every change, however many', exclusive: ['limit'] }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrChanges);
    const body = await fetchChanges(
      await this.transport(flags),
      'getChangeRequestChanges',
      { spaceId: args.spaceId, changeRequestId: args.changeRequestId },
      flags,
    );
    if (!this.jsonEnabled()) printChanges((s) => this.log(s), body);
    return body;
  }
}
