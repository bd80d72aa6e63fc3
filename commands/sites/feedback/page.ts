import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'submitSiteAgentFeedback',
  description: "Send an agent's feedback about a page of a site (the older form of `sites feedback send`; recorded the same way)",
  examples: [
    '<%= config.bin %> sites feedback page szK9Qp2mTtR4bLx0aVn1 --space-id spcQ8vXa1ZtY6HcMbR2p --page-id pgeA1b2C3d4E5f6G7h8 --url https://docs.example.com/install --feedback "The version shown is outdated"',
  ],
  orgFlag: true,
  done: 'Feedback recorded.',
});
