import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'uninstallIntegrationFromSite',
  description: 'Uninstall an integration from one site (the installation keeps its other sites; emits site_installation_deleted)',
  examples: [
    '<%= config.bin %> integrations sites uninstall slack Hk3sP0qLmZ8xWv2nR4tY site_Ab3dE5gH7jK9mN1p',
    '<%= config.bin %> integrations sites uninstall slack Hk3sP0qLmZ8xWv2nR4tY site_Ab3dE5gH7jK9mN1p --yes',
  ],
  confirm: (path) => `Uninstall ${path.integrationName} (installation ${path.installationId}) from site ${path.siteId}?`,
  done: (_s, p) => `Uninstalled ${p.integrationName} from site ${p.siteId}.`,
  missing: (p) => `${p.integrationName} (installation ${p.installationId}) is not installed on site ${p.siteId}: nothing changed`,
  prepare: (_req, _flags, transport) => transport.runWorkers?.(),
});
