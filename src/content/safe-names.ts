// File names and page slugs become paths on disk: `docs content pull` writes a file under its
// name and a page under its path (its slugs joined by `/`). So the server takes only names made
// of safe path segments, and pull checks again whatever a server sends (data written by an older
// build, or straight into a PostgreSQL store, may hold anything).
//
// A safe segment: 1 to 255 bytes of UTF-8 (a file name on every common file system), not `.`
// or `..`, without `/`, `\`, NUL or any other control character. A file name is one or more
// safe segments joined by `/` (`images/logo.png`: push uploads files under their folder path),
// at most 256 characters (the contract's limit); a page slug is one segment (its own, stricter pattern applies too).

export const SEGMENT_MAX_BYTES = 255;
// The contract's own limit on a file's name (insert_files).
export const FILE_NAME_MAX = 256;

// C0 controls, DEL and C1 controls: nothing a path (or a download header) should carry.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `s` is not a safe path segment ("is empty", "contains ..."), or undefined when it is. */
export function segmentProblem(s: string): string | undefined {
  if (s === '') return 'is empty';
  if (s === '.' || s === '..') return `is "${s}"`;
  if (s.includes('/')) return 'contains "/"';
  if (s.includes('\\')) return 'contains "\\"';
  if (CONTROL.test(s)) return 'contains a control character';
  if (Buffer.byteLength(s, 'utf8') > SEGMENT_MAX_BYTES) return `is longer than ${SEGMENT_MAX_BYTES} bytes`;
  return undefined;
}

/** What a refusal says the rule is. */
export const FILE_NAME_RULE = `path segments joined by "/", each 1 to ${SEGMENT_MAX_BYTES} bytes, not "." or "..", without "\\" or control characters`;

/**
 * Why a file name (safe segments joined by `/`) is refused ("segment 1 of 3 is \"..\"", "it
 * starts with \"/\""), or undefined when it is fine.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name.length > FILE_NAME_MAX) return `it is longer than ${FILE_NAME_MAX} characters`;
  if (name.startsWith('/')) return 'it starts with "/" (names are relative)';
  const segs = name.split('/');
  for (const [i, seg] of segs.entries()) {
    const p = segmentProblem(seg);
    if (p) return segs.length === 1 ? `it ${p}` : `segment ${i + 1} of ${segs.length} ${p}`;
  }
  return undefined;
}
