// Splitting a big table of a shard into a fixed number of sub-shards ("buckets") by row id, so
// that a write rewrites the bucket of the rows it changes rather than every row of the table:
// a page edit in a 5,000-page space rewrites 1/16 of the space's page bodies, not all of them.
// The bucket is a pure function of the id (FNV-1a), so a row always lives in the same file.

/** The bucket (0..n-1) of an id. */
export function bucketOf(id: string, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % n;
}
