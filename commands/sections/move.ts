import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

// The deprecated per-kind move of the API (sortSiteStructure is the newer form: docs sites sort).
export default operationCommand({
  operationId: 'moveSiteSection',
  description: 'Move a site section before or after a sibling (to the end with neither)',
  examples: [
    '<%= config.bin %> sections move szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE --before sctB2nV8xQ4mLp0ZrT6y',
    '<%= config.bin %> sections move szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE   # to the end',
  ],
  orgFlag: true,
  flags: {
    before: Flags.string({ description: 'Put it before this sibling (its ID)', exclusive: ['after'] }),
    after: Flags.string({ description: 'Put it after this sibling (its ID)', exclusive: ['before'] }),
  },
  prepare: (req, flags) => {
    const pointer = (id: string) => ({ type: 'site-section', siteSection: id });
    req.body = { position: { ...(flags.before ? { before: pointer(flags.before) } : {}), ...(flags.after ? { after: pointer(flags.after) } : {}) } };
  },
});
