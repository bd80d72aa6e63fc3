import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

// The deprecated per-kind move of the API (sortSiteStructure is the newer form: docs sites sort).
export default operationCommand({
  operationId: 'moveSiteSectionGroup',
  description: 'Move a section group before or after a sibling (to the end with neither)',
  examples: [
    '<%= config.bin %> section-groups move szK9Qp2mTtR4bLx0aVn1 sgp3Lw8QzX1nVb6MkT0c --before sgp9Rt2YcN5xWq7LmB4a',
    '<%= config.bin %> section-groups move szK9Qp2mTtR4bLx0aVn1 sgp3Lw8QzX1nVb6MkT0c   # to the end',
  ],
  orgFlag: true,
  flags: {
    before: Flags.string({ description: 'Put it before this sibling (its ID)', exclusive: ['after'] }),
    after: Flags.string({ description: 'Put it after this sibling (its ID)', exclusive: ['before'] }),
  },
  prepare: (req, flags) => {
    const pointer = (id: string) => ({ type: id.startsWith('sgp') ? 'site-section-group' : 'site-section', id });
    req.body = { position: { ...(flags.before ? { before: pointer(flags.before) } : {}), ...(flags.after ? { after: pointer(flags.after) } : {}) } };
  },
});
