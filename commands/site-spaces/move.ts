import { moveCommand } from '../_lib/move-command.js';

export default moveCommand({
  operationId: 'moveSiteSpace',
  what: 'site space',
  examples: [
    '<%= config.bin %> site-spaces move szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --before sspZ0aQ8mN2xLc5VtR7e',
    '<%= config.bin %> site-spaces move szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e   # to the end',
  ],
  sibling: 'its ID',
  pointer: (id) => ({ type: 'site-space', siteSpace: id }),
});
