import { DocsError } from '../kernel/errors.js';

// Errors of the disk under a data directory (full, read-only, over quota, failing) are not bugs
// of docs: they are answered 503 (exit 1 on the CLI) with one line naming the cause and the data
// directory, so an operator knows what to free or fix, instead of "internal error: ENOSPC".
const STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EMFILE', 'ENFILE', 'EACCES', 'EPERM', 'EFBIG']);

/** `err` as a DocsError naming its cause and `dir`, when it is an error of the disk; else `err`. */
export function storageError(err: unknown, dir: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (err instanceof DocsError || !code || !STORAGE_CODES.has(code)) return err;
  // Node's message is "ENOSPC: no space left on device, open '/path/file.tmp'": the cause is
  // what comes before the path (the path of a temp file says nothing to an operator).
  const cause = String((err as Error).message).split(', ')[0];
  return new DocsError('unavailable', `data directory ${dir}: ${cause}`, { cause: err });
}
