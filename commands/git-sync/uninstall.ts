import { operationCommand } from '../_lib/operation-command.js';
import { chooseGitInstallation } from '../_lib/pick.js';

export default operationCommand({
  operationId: 'uninstallGitSyncInstallation',
  description: "Uninstall a Git Sync installation (a site's takes the space installations it manages with it); the repository is not touched",
  examples: ['<%= config.bin %> git-sync uninstall Ab3dE5gH7jK9mN1pQ2rS --yes'],
  choose: { installationId: chooseGitInstallation },
  confirm: (p) => `Uninstall Git Sync installation ${p.installationId}?`,
  done: (_s, p) => `✓ Uninstalled Git Sync installation ${p.installationId}`,
});
