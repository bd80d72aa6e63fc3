import { readdirSync, readlinkSync } from 'node:fs';

/**
 * The files under `folder` this process has open, as `fd path` (Linux: /proc/self/fd, which
 * holds its worker threads' too: the search thread's SQLite files); empty elsewhere.
 */
export function openFilesUnder(folder: string): Set<string> {
  const open = new Set<string>();
  if (process.platform !== 'linux') return open;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const path = readlinkSync(`/proc/self/fd/${fd}`);
      if (path.startsWith(`${folder}/`)) open.add(`${fd} ${path}`);
    } catch {
      // closed meanwhile (the listing's own descriptor, one closing)
    }
  }
  return open;
}
