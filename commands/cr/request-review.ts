import * as Flags from '@oclif/core/flags';
import { markdownToDocument } from '../../src/documents/markdown.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'requestReviewersForChangeRequest',
  description: 'Ask members to review a change request (they must be able to review the space)',
  flags: {
    users: Flags.string({ description: 'User id of a reviewer to ask (repeat for several)', multiple: true, aliases: ['user'], required: true }),
    description: Flags.string({ description: 'Also set the change request description, as markdown' }),
  },
  prepare: async (req, flags) => {
    if (flags.description !== undefined) req.body = { ...req.body, description: await markdownToDocument(flags.description) };
  },
  examples: [
    '<%= config.bin %> cr request-review dHD9ZmkOPnfy9hWCsaQB 3 --user Xk2f9QmL0aTz7WcV1bNp',
    '<%= config.bin %> cr request-review dHD9ZmkOPnfy9hWCsaQB 3 --user Xk2f9QmL0aTz7WcV1bNp --user T7gH2kLm9QpR4sVx8YzA --subject "Setup guide" --description "Adds the setup guide."',
  ],
});
