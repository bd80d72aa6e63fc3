import { spawnSync } from 'node:child_process';
import { closeSync, openSync, rmSync, unlinkSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/server.js';

/**
 * A small tmpfs for full-disk tests, or the reason there is none (not root, no mount(8), a
 * container without CAP_SYS_ADMIN): the tests skip with that reason rather than pass untested.
 */
export function mountTmpfs(sizeMb: number): { dir: string; unmount: () => void } | { skip: string } {
  if (process.platform !== 'linux') return { skip: `tmpfs needs Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { skip: 'mounting a tmpfs needs root' };
  const dir = tempDir('docs-tmpfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs: ${(r.stderr || r.error?.message || '').trim()}` };
  }
  return {
    dir,
    unmount: () => {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Fills the file system of `dir` to the last page with `file`, leaving `sparePages` pages free
 * (a tmpfs counts whole pages: a 1-byte file takes one, and deleting it frees exactly one).
 */
export function fillDisk(dir: string, file: string, sparePages = 0): void {
  const spares = Array.from({ length: sparePages }, (_, i) => join(dir, `.spare-${i}`));
  for (const s of spares) writeFileSync(s, 'x');
  const fd = openSync(file, 'a');
  const big = Buffer.alloc(1 << 20);
  const page = Buffer.alloc(4096);
  try {
    for (const chunk of [big, page]) {
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (err: any) {
          if (err.code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  for (const s of spares) unlinkSync(s);
}
