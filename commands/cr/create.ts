import * as Flags from '@oclif/core/flags';
import { descriptionFlag } from '../_lib/markdown-flag.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'createChangeRequest',
  description: "Open a change request on the space's current revision (optionally filled from a template)",
  examples: [
    '<%= config.bin %> cr create dHD9ZmkOPnfy9hWCsaQB --subject "Fix the install guide"',
    '<%= config.bin %> cr create dHD9ZmkOPnfy9hWCsaQB --subject "API docs" --description why.md --template getting-started --json',
  ],
  flags: {
    description: descriptionFlag(),
    template: Flags.string({ description: 'Built-in template to fill the change request with (getting-started, api-reference, faq)' }),
  },
  // Not fields of the pinned create body (API.md has them): placed in the body here.
  prepare: (req, flags) => {
    if (flags.description !== undefined) req.body = { ...(req.body ?? {}), description: flags.description };
    if (flags.template !== undefined) req.body = { ...(req.body ?? {}), template: { id: flags.template } };
  },
});
