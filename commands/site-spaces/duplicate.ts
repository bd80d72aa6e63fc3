import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'duplicateSiteSpace',
  description: "Copy a site space's space (its content) and put the copy on the site: a new section after a section's only variant, else a variant beside it",
  examples: ['<%= config.bin %> site-spaces duplicate szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --draft'],
  orgFlag: true,
  summary: (b) => `✓ Duplicated as "${b.title}" (${b.id})${b.hidden ? ', hidden until shown' : ''}`,
});
