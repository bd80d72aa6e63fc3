import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

// One buffer for every file that push and check read whole (grown up to the largest asked, at
// most `max` + 1 bytes): a file is opened and read once, with no stat (a Stats object, its four
// Dates) before it, and no buffer of its own; a 2,000-page push or check reads them all.
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * The bytes of the file at `real`, as a view of the shared buffer (valid until the next call:
 * hash or decode them first), or its size when it holds more than `max` bytes.
 */
export function readWhole(real: string, max: number): Buffer | { size: number } {
  const fd = openSync(real, 'r');
  try {
    let n = 0;
    for (;;) {
      if (n === scratch.length) {
        if (n > max) return { size: fstatSync(fd).size };
        const bigger = Buffer.allocUnsafe(Math.min(scratch.length * 2, max + 1));
        scratch.copy(bigger, 0, 0, n);
        scratch = bigger;
      }
      const want = scratch.length - n;
      const got = readSync(fd, scratch, n, want, null);
      n += got;
      // A regular file's read gives less than asked only at its end: no second read to see 0
      // (one system call fewer per file; a file written meanwhile is read as it was).
      if (got < want) return scratch.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
