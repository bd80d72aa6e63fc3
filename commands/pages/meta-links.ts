import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';
import { invalid } from '../../src/kernel/errors.js';

export default operationCommand({
  operationId: 'listSpacePageMetaLinks',
  changeRequestForm: 'listChangeRequestPageMetaLinks',
  operations: ['listRevisionPageMetaLinks'],
  description: "Show a page's meta links: its canonical address and its alternates",
  examples: [
    '<%= config.bin %> pages meta-links dHD9ZmkOPnfy9hWCsaQB pg7Hq2KpLw9XbYc3MnE1',
    '<%= config.bin %> pages meta-links dHD9ZmkOPnfy9hWCsaQB pg7Hq2KpLw9XbYc3MnE1 --revision rQ8aN2pL0xYvB3cD5eFg --jq .canonical',
  ],
  summary: false,
  flags: {
    revision: Flags.string({ description: "the page as it was in this revision (listRevisionPageMetaLinks) instead of the space's current content" }),
  },
  call: async (req, flags, transport) => {
    if (flags.revision === undefined) return undefined;
    if (flags['change-request'] !== undefined) throw invalid('--revision and --change-request: give one of them');
    return transport.call('listRevisionPageMetaLinks', { path: { ...req.path, revisionId: flags.revision } });
  },
});
