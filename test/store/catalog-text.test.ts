import { describe, expect, it } from 'vitest';
import { bucketText, catalogEntry, entryIn, fileName, parseBucket } from '../../src/store/shard-files.js';

// A catalog bucket's text is made by joining its entries (a commit rewrites 6–7 buckets of ~330
// entries at 10,000 spaces); it must be byte for byte what JSON.stringify of the same object
// writes, which `entryIn` and older docs read.
describe('catalog bucket text', () => {
  const keys = ['org/abc', 'space/x1/nodes/7', 'dir/spaces.id/12', 'sum/spaces/o/63', '..', '%00', 'a'.repeat(300), 'é/ü', 'x y/"q"', 'back\\slash'];

  it('is what JSON.stringify writes, for every kind of shard name, and every entry is found in it', () => {
    const sums = new Map(keys.map((k, i) => [fileName(k), catalogEntry(`{"t":{"${i}":{}}}`)]));
    const text = bucketText(sums);
    expect(text).toBe(JSON.stringify(Object.fromEntries(sums)));
    const bytes = Buffer.from(text);
    for (const [file, entry] of sums) expect(entryIn(bytes, file)).toBe(entry);
    expect([...parseBucket(0, bytes)]).toEqual([...sums]);
  });

  it('escapes a name that needs it as JSON.stringify does (names not made by fileName)', () => {
    const sums = new Map([
      ['a"b.json', catalogEntry('{}')],
      ['c\\d.json', catalogEntry('{"a":{}}')],
      ['e\nf.json', catalogEntry('{"b":{}}')],
      ['\ud800.json', catalogEntry('{"c":{}}')],
    ]);
    expect(bucketText(sums)).toBe(JSON.stringify(Object.fromEntries(sums)));
    expect(bucketText(new Map())).toBe('{}');
  });
});
