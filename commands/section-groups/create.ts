import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'addSectionGroupToSite',
  description: 'Create a section group, optionally taking sections and nested in another group',
  examples: [
    '<%= config.bin %> section-groups create szK9Qp2mTtR4bLx0aVn1 --title Products --sections sct7Hq2KpLw9XbYc3MnE',
    '<%= config.bin %> section-groups create szK9Qp2mTtR4bLx0aVn1 --title Legacy --parent grpW3nB8rTq5LcYx0KdM',
  ],
  orgFlag: true,
  flags: {
    icon: Flags.string({ description: 'Icon name (e.g. box)' }),
  },
});
