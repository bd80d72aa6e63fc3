import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// `docs restore` makes the restored data directory owner-only (folders 0700, files 0600) whatever
// modes its archive carries: an archive repacked elsewhere (or by hand) with 0644/0755 entries
// must not leave the store, its checksums and blobs readable by others.

function loose(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (statSync(p).mode & 0o077) out.push(`${p} ${(statSync(p).mode & 0o777).toString(8)}`);
      if (e.isDirectory()) walk(p);
    }
  };
  if (statSync(dir).mode & 0o077) out.push(dir);
  walk(dir);
  return out;
}

describe('restore', () => {
  it('leaves every folder 0700 and every file 0600, whatever the archive says', async () => {
    const data = join(tempDir(), 'data');
    expect((await docs(['orgs', 'list', '--data', data])).status).toBe(0);
    const out = join(tempDir(), 'b.tar.gz');
    expect((await docs(['backup', '--data', data, out])).status).toBe(0);
    // Repack with group/other bits on every entry.
    const tar = await import('tar');
    const unpacked = tempDir();
    await tar.extract({ file: out, cwd: unpacked });
    const widen = (d: string) => {
      chmodSync(d, 0o755);
      for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? widen(join(d, e.name)) : chmodSync(join(d, e.name), 0o644);
    };
    widen(unpacked);
    const wide = join(tempDir(), 'wide.tar.gz');
    await tar.create({ gzip: true, cwd: unpacked, file: wide, portable: true }, readdirSync(unpacked));
    const restored = join(tempDir(), 'restored');
    const r = await docs(['restore', wide, '--data', restored]);
    expect(r.status, r.stderr).toBe(0);
    expect(loose(restored)).toEqual([]);
    expect((await docs(['doctor', '--data', restored])).status).toBe(0);
  }, 60_000);
});
