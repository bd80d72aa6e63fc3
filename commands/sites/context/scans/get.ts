import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteScanById',
  description: 'Show a scan of a site: its status, when it ran and the findings it found by severity',
  examples: ['<%= config.bin %> sites context scans get szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:Yt4Rk2LmQ8wZx1Vb7Nc3'],
  orgFlag: true,
});
