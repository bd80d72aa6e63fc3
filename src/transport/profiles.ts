import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';

// Saved logins (`docs auth login`). Read here with a plain file read, so that resolving the
// transport costs nothing at start-up; written through `conf` (commands/auth) in the same file.

export interface Profile {
  apiUrl: string;
  token: string;
  user?: string;
}

export interface ProfilesFile {
  current?: string;
  profiles?: Record<string, Profile>;
}

/** Directory of the CLI's config file; `DOCS_CONFIG_DIR` moves it (tests, several setups). */
export function configDir(): string {
  return process.env.DOCS_CONFIG_DIR || envPaths('docs', { suffix: 'nodejs' }).config;
}

export const CONFIG_NAME = 'config';

export function readProfiles(): ProfilesFile {
  try {
    return JSON.parse(readFileSync(join(configDir(), CONFIG_NAME + '.json'), 'utf8')) as ProfilesFile;
  } catch {
    return {};
  }
}

/** The profile in use: the named one, else the current one. */
export function currentProfile(name?: string): (Profile & { name: string }) | undefined {
  const file = readProfiles();
  const n = name ?? file.current;
  const p = n ? file.profiles?.[n] : undefined;
  return p && n ? { ...p, name: n } : undefined;
}

/** Default data directory of the embedded store (per user), unless --data / DOCS_DATA say otherwise. */
export function defaultDataDir(): string {
  return envPaths('docs', { suffix: '' }).data;
}
