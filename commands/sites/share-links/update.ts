import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteShareLinkById',
  description: 'Rename, enable or disable a share link',
  examples: [
    '<%= config.bin %> sites share-links update szK9Qp2mTtR4bLx0aVn1 lnkR2pQ8vXa1ZtY6HcMb --no-active',
    '<%= config.bin %> sites share-links update szK9Qp2mTtR4bLx0aVn1 lnkR2pQ8vXa1ZtY6HcMb --name "Beta testers"',
  ],
  orgFlag: true,
});
