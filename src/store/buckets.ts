// The bucket of a value among a fixed number: the store's directories are split into buckets by
// the value they look up (src/store/layout.ts), so adding one entry rewrites one small file.
// A pure function of the value (FNV-1a), so an entry always lives in the same file.

/** The bucket (0..n-1) of an id. */
export function bucketOf(id: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % n;
}
