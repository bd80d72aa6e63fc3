import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getOrganizationAIUsage',
  description: "Show the organization's AI usage by period: questions answered by ask and translation runs (one credit each)",
  examples: [
    '<%= config.bin %> orgs ai-usage --from 2026-11-01T00:00:00Z --to 2026-12-01T00:00:00Z --interval week',
    '<%= config.bin %> orgs ai-usage --from 2026-01-01T00:00:00Z --to 2027-01-01T00:00:00Z --interval month --jq ".periods[] | [.date, .credits]"',
  ],
  orgFlag: true,
  summary: false,
});
