import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

// The deprecated per-kind move of the API (sortSiteStructure is the newer form: docs sites sort).
export default operationCommand({
  operationId: 'moveSiteSpace',
  description: 'Move a site space before or after a sibling (to the end with neither)',
  examples: [
    '<%= config.bin %> site-spaces move szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --before sspZ0aQ8mN2xLc5VtR7e',
    '<%= config.bin %> site-spaces move szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e   # to the end',
  ],
  orgFlag: true,
  flags: {
    before: Flags.string({ description: 'Put it before this sibling (its ID)', exclusive: ['after'] }),
    after: Flags.string({ description: 'Put it after this sibling (its ID)', exclusive: ['before'] }),
  },
  prepare: (req, flags) => {
    const pointer = (id: string) => ({ type: 'site-space', siteSpace: id });
    req.body = { position: { ...(flags.before ? { before: pointer(flags.before) } : {}), ...(flags.after ? { after: pointer(flags.after) } : {}) } };
  },
});
