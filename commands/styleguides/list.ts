import { operationCommand } from '../_lib/operation-command.js';

// `docs styleguides list`: the organization's style guides and the sites using each (docs/manual/styleguides.md).
export default operationCommand({
  operationId: 'listOrganizationStyleguides',
  description: "List the organization's style guides, each with the sites that use it",
  examples: ['<%= config.bin %> styleguides list', '<%= config.bin %> styleguides list --json'],
  orgFlag: true,
  summary: false,
});
