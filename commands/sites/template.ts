import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'applyTemplateToSite',
  description: 'Fill an empty site with the default documentation: a Getting started and an API reference section, each with its own new space and pages',
  examples: ['<%= config.bin %> sites template szK9Qp2mTtR4bLx0aVn1'],
  orgFlag: true,
  done: (_s, p) => `Template applied to site ${p.siteId}: see it with docs sites structure ${p.siteId}`,
});
