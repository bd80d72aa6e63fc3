import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateSiteFindingById',
  description: "Set a finding's status (open, done, canceled, candidate): later scans keep a status set by a person",
  examples: ['<%= config.bin %> sites context findings update szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:f3c1d2e9a8b7f6e5d4c3 --status canceled'],
  orgFlag: true,
  summary: (b) => `✓ Finding ${b.id} is ${b.status}`,
});
