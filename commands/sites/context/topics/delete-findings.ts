import { operationCommand } from '../../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'deleteSiteTopicFindings',
  description: "Delete a topic's findings (later scans make one again only when it has more evidence)",
  examples: ['<%= config.bin %> sites context topics delete-findings szK9Qp2mTtR4bLx0aVn1 szK9Qp2mTtR4bLx0aVn1:t9a8b7c6d5e4f3a2b1c0 --yes'],
  orgFlag: true,
  confirm: (p) => `Delete the findings of topic ${p.siteTopicId}?`,
  done: (status, p) => (status === 205 ? `Deleted the findings of topic ${p.siteTopicId}.` : `Topic ${p.siteTopicId} has no findings: nothing deleted.`),
});
