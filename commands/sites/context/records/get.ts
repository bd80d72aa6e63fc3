import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getSiteContextRecordById',
  description: "Show a site's context record: its title, type, connection and source",
  examples: ['<%= config.bin %> sites context records get szK9Qp2mTtR4bLx0aVn1 rc7Hq2LmN0pXv5TzK8Wd'],
  orgFlag: true,
});
