import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteSectionGroupById',
  description: 'Rename a section group or change its icon',
  examples: ['<%= config.bin %> section-groups update szK9Qp2mTtR4bLx0aVn1 grpW3nB8rTq5LcYx0KdM --title "All products" --icon box'],
  orgFlag: true,
  flags: {
    icon: Flags.string({ description: 'Icon name (e.g. box)' }),
  },
});
