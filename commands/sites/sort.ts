import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { operationCommand } from '../_lib/operation-command.js';

const pointer = (v: string) => {
  const [type, id] = v.split(':');
  if (!type || !id) throw new DocsError('invalid', `${v}: expected TYPE:ID, e.g. site-space:sspAq91LmZx2Vt8NcR0e`);
  return { type, id };
};

export default operationCommand({
  operationId: 'sortSiteStructure',
  description: 'Reorder a site space, section or section group among its siblings',
  examples: [
    '<%= config.bin %> sites sort szK9Qp2mTtR4bLx0aVn1 --item site-space:sspAq91LmZx2Vt8NcR0e --before site-space:sspZ0aQ8mN2xLc5VtR7e',
    '<%= config.bin %> sites sort szK9Qp2mTtR4bLx0aVn1 --item site-section:sct7Hq2KpLw9XbYc3MnE   # to the end',
  ],
  orgFlag: true,
  flags: {
    item: Flags.string({ description: 'What to move: site-space:ID, site-section:ID or site-section-group:ID', required: true }),
    before: Flags.string({ description: 'Put it before this sibling (TYPE:ID)', exclusive: ['after'] }),
    after: Flags.string({ description: 'Put it after this sibling (TYPE:ID)', exclusive: ['before'] }),
  },
  prepare: (req, flags) => {
    // Without --before or --after the item goes to the end of its siblings.
    req.body = {
      item: pointer(flags.item),
      position: { ...(flags.before ? { before: pointer(flags.before) } : {}), ...(flags.after ? { after: pointer(flags.after) } : {}) },
    };
  },
});
