import { open } from 'node:fs/promises';

/**
 * A disk for FileBackend's `openFile` seam that accepts `disk.budget` more file writes, then
 * writes half of one and fails with ENOSPC (test/reliability/full-disk.test.ts,
 * test/store/journal.test.ts).
 */
export function faultyDisk() {
  const disk = { budget: Infinity };
  const openFile = async (path: string, flags: string, mode: number) => {
    const fd = await open(path, flags, mode);
    const writeFile = fd.writeFile.bind(fd);
    (fd as any).writeFile = async (text: string) => {
      if (disk.budget-- > 0) return writeFile(text);
      await writeFile(text.slice(0, Math.floor(text.length / 2)));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    };
    return fd;
  };
  return { disk, openFile };
}
