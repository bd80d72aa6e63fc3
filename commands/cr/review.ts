import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'submitChangeRequestReview',
  description: 'Review a change request: approve it or request changes (needs the review level; not your own)',
  flags: { comment: Flags.string({ description: 'A comment with the review, as markdown' }) },
  prepare: (req, flags) => {
    if (flags.comment !== undefined) req.body = { ...req.body, comment: { markdown: flags.comment } };
  },
  examples: [
    '<%= config.bin %> cr review dHD9ZmkOPnfy9hWCsaQB 3 --status approved',
    '<%= config.bin %> cr review dHD9ZmkOPnfy9hWCsaQB 3 --status changes-requested --comment "The **setup** page needs a screenshot."',
  ],
});
