import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'addSectionToSite',
  description: 'Add a section to a site, with a space as its first site space',
  examples: ['<%= config.bin %> sections create szK9Qp2mTtR4bLx0aVn1 --space-id dHD9ZmkOPnfy9hWCsaQB --title "API Reference" --icon code'],
  orgFlag: true,
  flags: {
    title: Flags.string({ description: 'Title (2 to 128 characters; default: the space title)' }),
    icon: Flags.string({ description: 'Icon name (e.g. code)' }),
  },
});
