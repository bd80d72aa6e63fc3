import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'addSpaceToSite',
  description: 'Add a space to a site (to a section, else the default section or the root)',
  examples: [
    '<%= config.bin %> site-spaces add szK9Qp2mTtR4bLx0aVn1 --space-id dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> site-spaces add szK9Qp2mTtR4bLx0aVn1 --space-id dHD9ZmkOPnfy9hWCsaQB --section-id sct7Hq2KpLw9XbYc3MnE',
  ],
  orgFlag: true,
});
