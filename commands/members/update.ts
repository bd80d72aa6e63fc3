import { changedLine } from '../_lib/changed.js';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'updateMemberInOrganizationById',
  description: "Change a member's role (admins)",
  orgFlag: true,
  examples: [
    '<%= config.bin %> members update Xk2f9QmL0aTz7WcV1bNp --role edit',
    '<%= config.bin %> members update Xk2f9QmL0aTz7WcV1bNp --role guest --org r55bjk0VeuQGpJpb7mcG',
  ],
  // "role guest", not "role none": --role guest sends null (no role).
  summary: (body) => changedLine('Updated', body, { role: body?.role ?? 'guest' }),
});
