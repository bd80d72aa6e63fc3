import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { DocsError } from '../../src/kernel/errors.js';

/** A folder as a zip (regular files only; dot entries left out but `.gitbook`), for `docs imports start --dir`. */
export function zipFolder(dir: string): Buffer {
  const files: Record<string, Uint8Array> = {};
  const visit = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(join(dir, rel), { withFileTypes: true });
    } catch {
      throw new DocsError('invalid', `--dir: ${dir} is not a folder`);
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.name.startsWith('.') && e.name !== '.gitbook') continue;
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) files[p] = readFileSync(join(dir, p));
    }
  };
  visit('');
  return Buffer.from(zipSync(files));
}
