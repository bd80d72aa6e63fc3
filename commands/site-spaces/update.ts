import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteSpaceById',
  description: 'Change a site space: path, condition, space, hidden',
  examples: [
    '<%= config.bin %> site-spaces update szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --path v2 --hidden',
    `<%= config.bin %> site-spaces update szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --condition 'visitor.claims.isBeta === true'`,
    '<%= config.bin %> site-spaces update szK9Qp2mTtR4bLx0aVn1 sspAq91LmZx2Vt8NcR0e --no-condition',
  ],
  orgFlag: true,
  flags: {
    condition: Flags.string({
      description: 'Condition over visitor claims, e.g. visitor.claims.plan === "pro" (see docs/manual/sites.md)',
      exclusive: ['no-condition'],
    }),
    'no-condition': Flags.boolean({ description: 'Remove the condition', exclusive: ['condition'] }),
    hidden: Flags.boolean({ description: 'Hide it from the navigation of the published site (--no-hidden shows it)', allowNo: true }),
  },
  prepare: (req, flags) => {
    if (flags['no-condition']) req.body = { ...req.body, condition: null };
    if (flags.hidden !== undefined) req.body = { ...req.body, hidden: flags.hidden };
  },
});
