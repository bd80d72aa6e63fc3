import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'uninstallIntegrationFromSpace',
  description: 'Uninstall an integration from one space (the installation keeps its other spaces; emits space_installation_deleted)',
  examples: [
    '<%= config.bin %> integrations spaces uninstall slack Hk3sP0qLmZ8xWv2nR4tY Ab3dE5gH7jK9mN1pQ2rS',
    '<%= config.bin %> integrations spaces uninstall slack Hk3sP0qLmZ8xWv2nR4tY Ab3dE5gH7jK9mN1pQ2rS --yes',
  ],
  confirm: (path) => `Uninstall ${path.integrationName} (installation ${path.installationId}) from space ${path.spaceId}?`,
  done: (_s, p) => `Uninstalled ${p.integrationName} from space ${p.spaceId}.`,
  missing: (p) => `${p.integrationName} (installation ${p.installationId}) is not installed on space ${p.spaceId}: nothing changed`,
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
