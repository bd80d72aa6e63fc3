import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'queueIntegrationTask',
  description: 'Queue a task for an integration (delivered to it like its events, after --schedule seconds)',
  examples: [
    `<%= config.bin %> integrations task slack --task '{"type":"sync"}'`,
    `<%= config.bin %> integrations task slack --task '{"type":"digest"}' --schedule 3600`,
  ],
  done: (_status, path) => `✓ Queued a task for integration ${path.integrationName}`,
  // In-process, this command delivers it (as install does its events): the delivery worker runs until it is done.
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
