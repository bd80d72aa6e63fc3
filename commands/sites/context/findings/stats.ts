import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteFindingStats',
  description: "Count a site's findings by status, severity and connector, with the merged change requests that fixed them (candidates are never counted)",
  examples: [
    '<%= config.bin %> sites context findings stats szK9Qp2mTtR4bLx0aVn1',
    '<%= config.bin %> sites context findings stats szK9Qp2mTtR4bLx0aVn1 --type content-gap --json',
  ],
  orgFlag: true,
  summary: false,
});
