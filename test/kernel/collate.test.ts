import { describe, expect, it } from 'vitest';
import { collate, collationKeys, naturalCollate } from '../../src/kernel/collate.js';

// The ASCII orders of src/kernel/collate.ts must be ICU's exactly: every pair of strings of up to
// two printable ASCII characters, then random longer ones (digit runs with leading zeros, both
// cases, the punctuation of paths and operation names), against Intl.Collator.

const ICU = new Intl.Collator('en');
const ICU_NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const sign = (n: number) => Math.sign(n);
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));

function* shortStrings(): Generator<string> {
  yield '';
  for (const a of PRINTABLE) {
    yield a;
    for (const b of PRINTABLE) yield a + b;
  }
}

// A small deterministic generator: the same strings on every run.
function random(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
}
const PIECES = [
  'a',
  'B',
  'z',
  'Z',
  '0',
  '00',
  '1',
  '01',
  '9',
  '10',
  '007',
  '123456789012',
  '-',
  '_',
  '/',
  '.',
  ' ',
  '{',
  '}',
  '#',
  '~',
  '|',
  'get',
  'GET',
  'page',
];
function randomStrings(n: number, seed: number): string[] {
  const r = random(seed);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    const parts = Math.floor(r() * 7);
    for (let k = 0; k < parts; k++) s += r() < 0.7 ? PIECES[Math.floor(r() * PIECES.length)] : PRINTABLE[Math.floor(r() * PRINTABLE.length)];
    out.push(s);
  }
  return out;
}

describe('collate and naturalCollate: ICU order without an ICU collator for ASCII', () => {
  const short = [...shortStrings()];

  it("collate is Intl.Collator('en') on every pair of strings of up to two characters, against a sample", () => {
    // Every short string against every 97th one (all ~9,000 against ~94): ~850,000 comparisons.
    const probes = short.filter((_, i) => i % 97 === 0);
    for (const a of short)
      for (const b of probes) if (sign(collate(a, b)) !== sign(ICU.compare(a, b))) expect([a, b, collate(a, b)]).toEqual([a, b, ICU.compare(a, b)]);
    // And the sort of all of them.
    expect([...short].sort(collate)).toEqual([...short].sort(ICU.compare));
  });

  it('naturalCollate is the numeric, base-sensitivity collator on the same strings', () => {
    const probes = short.filter((_, i) => i % 89 === 0);
    for (const a of short)
      for (const b of probes)
        if (sign(naturalCollate(a, b)) !== sign(ICU_NATURAL.compare(a, b))) expect([a, b, naturalCollate(a, b)]).toEqual([a, b, ICU_NATURAL.compare(a, b)]);
  });

  it('both agree with ICU on random longer strings (digit runs, leading zeros, case, path punctuation)', () => {
    const xs = randomStrings(1500, 30);
    for (let i = 0; i < xs.length; i++)
      for (let j = i; j < Math.min(xs.length, i + 60); j++) {
        const [a, b] = [xs[i]!, xs[j]!];
        if (sign(collate(a, b)) !== sign(ICU.compare(a, b))) expect(['collate', a, b, collate(a, b)]).toEqual(['collate', a, b, ICU.compare(a, b)]);
        if (sign(naturalCollate(a, b)) !== sign(ICU_NATURAL.compare(a, b)))
          expect(['natural', a, b, naturalCollate(a, b)]).toEqual(['natural', a, b, ICU_NATURAL.compare(a, b)]);
      }
    expect([...xs].sort(naturalCollate)).toEqual([...xs].sort(ICU_NATURAL.compare));
  });

  it("collationKeys: the keys' plain order is ICU's, for both collators; none for a string outside printable ASCII", () => {
    const xs = [...randomStrings(1500, 7), ...[...shortStrings()].filter((_, i) => i % 7 === 0)];
    for (const natural of [false, true]) {
      const icu = natural ? ICU_NATURAL : ICU;
      const keys = collationKeys(xs, natural)!;
      for (let i = 0; i < xs.length; i++)
        for (let j = i; j < Math.min(xs.length, i + 40); j++) {
          const [a, b] = [keys[i]!, keys[j]!];
          const got = a < b ? -1 : a > b ? 1 : 0;
          if (got !== sign(icu.compare(xs[i]!, xs[j]!))) expect([natural, xs[i], xs[j], got]).toEqual([natural, xs[i], xs[j], icu.compare(xs[i]!, xs[j]!)]);
        }
      const sorted = xs.map((x, i) => ({ x, k: keys[i]! })).sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
      expect(sorted.map((s) => s.x)).toEqual([...xs].sort(icu.compare));
      expect(collationKeys([...xs, 'Éclair'], natural)).toBeUndefined();
    }
    expect(collationKeys(['a' + '1'.repeat(201)], true)).toBeUndefined();
  });

  it('strings outside printable ASCII are ICU’s', () => {
    for (const [a, b] of [
      ['é', 'f'],
      ['Äpfel', 'Zebra'],
      ['a\tb', 'ab'],
      ['page-٣', 'page-2'],
    ]) {
      expect(sign(collate(a!, b!))).toBe(sign(ICU.compare(a!, b!)));
      expect(sign(naturalCollate(a!, b!))).toBe(sign(ICU_NATURAL.compare(a!, b!)));
    }
  });
});
