import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteSectionById',
  description: 'Change a section: title, path, default site space, condition, icon, description',
  examples: [
    '<%= config.bin %> sections update szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE --path api --description "Every endpoint"',
    `<%= config.bin %> sections update szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE --condition 'visitor.claims.plan === "pro"'`,
    '<%= config.bin %> sections update szK9Qp2mTtR4bLx0aVn1 sct7Hq2KpLw9XbYc3MnE --default-site-space sspAq91LmZx2Vt8NcR0e',
  ],
  orgFlag: true,
  flags: {
    condition: Flags.string({
      description: 'Condition over visitor claims, e.g. visitor.claims.plan === "pro" (see docs/manual/sites.md)',
      exclusive: ['no-condition'],
    }),
    'no-condition': Flags.boolean({ description: 'Remove the condition', exclusive: ['condition'] }),
    title: Flags.string({ description: 'Title (2 to 128 characters)' }),
    icon: Flags.string({ description: 'Icon name (e.g. book); --icon "" is refused, use --no-icon' }),
    'no-icon': Flags.boolean({ description: 'Remove the icon' }),
    description: Flags.string({ description: 'Description (at most 256 characters)' }),
  },
  prepare: (req, flags) => {
    if (flags['no-condition']) req.body = { ...req.body, condition: null };
    if (flags['no-icon']) req.body = { ...req.body, icon: null };
  },
});
