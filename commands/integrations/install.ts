import { operationCommand } from '../_lib/operation-command.js';
import { organizationOf } from '../_lib/org.js';

export default operationCommand({
  operationId: 'installIntegration',
  description: 'Install an integration on an organization (emits an installation_setup event)',
  examples: ['<%= config.bin %> integrations install slack', '<%= config.bin %> integrations install slack --organization 6yZr3RyMqly3HeMx6Xkr --json'],
  prepare: async (req, _flags, transport) => {
    req.body = { ...req.body, organization: req.body?.organization ?? (await organizationOf({}, transport)) };
    transport.runWorkers?.(); // in-process: this process delivers the event in development mode
  },
});
