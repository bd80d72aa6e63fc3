import { CONFIG_NAME, configDir, type Profile } from '../../src/transport/profiles.js';

/** Profiles are written through conf (atomic writes, per-OS config dir, owner-only file). */
export async function profilesConf() {
  const { default: Conf } = await import('conf');
  return new Conf<{ current?: string; profiles?: Record<string, Profile> }>({
    projectName: 'docs',
    cwd: configDir(),
    configName: CONFIG_NAME,
    configFileMode: 0o600,
  });
}
