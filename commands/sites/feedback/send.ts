import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'submitAgentFeedbackToSite',
  description: "Send an agent's feedback to a site (recorded in its insights as an agent_feedback event)",
  examples: [
    '<%= config.bin %> sites feedback send szK9Qp2mTtR4bLx0aVn1 --subject \'{"kind":"documentation","url":"https://docs.example.com/install"}\' --feedback \'{"category":"documentation","summary":"The install page lists an old version"}\'',
  ],
  orgFlag: true,
  summary: (b) => `✓ Feedback recorded (${b.id})`,
});
