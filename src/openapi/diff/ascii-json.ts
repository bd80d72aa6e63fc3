import { isAscii } from 'node:buffer';

// The text of a JSON file that is not all ASCII, made ASCII: each character outside ASCII written
// as its JSON escape (`—` as `\u2014`), so that the file is decoded as latin1 (a copy) instead of
// UTF-8 (a decoder, and a two-byte string): the GitBook spec 0.202.0 is 1.7 MB with 58 such
// characters, 3.5 ms of UTF-8 decoding for each diff (issue 30). JSON.parse gives the same values:
// outside a string such a character is an error either way (an escape is only valid inside one),
// inside a string its escape is the same character. Anything else gets the usual UTF-8 decoding
// (undefined here): not JSON (YAML reads escapes only in quoted strings), a byte order mark,
// invalid UTF-8 (the decoder's replacement characters), or a character that is a space to a
// regular expression's \s (mayReferOutside reads the text, and must read it the same).

/** Below this, a range is read byte by byte; above, halved while isAscii (SIMD) says it has a non-ASCII byte. */
const LEAF = 512;

/** The ranges [start, end) holding the non-ASCII bytes, in order. */
function nonAsciiRanges(bytes: Buffer, start: number, end: number, out: number[]): void {
  if (isAscii(bytes.subarray(start, end))) return;
  if (end - start <= LEAF) {
    out.push(start, end);
    return;
  }
  const mid = (start + end) >>> 1;
  nonAsciiRanges(bytes, start, mid, out);
  nonAsciiRanges(bytes, mid, end, out);
}

/** The code point of the well-formed UTF-8 sequence at `i` (and its length), or undefined. */
function codePointAt(bytes: Buffer, i: number): [number, number] | undefined {
  const b0 = bytes[i]!;
  const cont = (k: number) => {
    const b = bytes[i + k];
    return b !== undefined && (b & 0xc0) === 0x80 ? b & 0x3f : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? undefined : [((b0 & 0x1f) << 6) | c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1);
    const c2 = cont(2);
    if (c1 < 0 || c2 < 0) return undefined;
    const cp = ((b0 & 0x0f) << 12) | (c1 << 6) | c2;
    // Overlong, or a surrogate: not well formed.
    return cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff) ? undefined : [cp, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return undefined;
    const cp = ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    return cp < 0x10000 || cp > 0x10ffff ? undefined : [cp, 4];
  }
  return undefined;
}

const hex4 = (u: number) => `\\u${u.toString(16).padStart(4, '0')}`;
const SPACE = /\s/;

/** `bytes` (not all ASCII) as ASCII JSON text, or undefined when it must be decoded as UTF-8 (see above). */
export function asciiJsonText(bytes: Buffer): string | undefined {
  // JSON as parseText tells it (/^\s*[{[]/), read from ASCII spaces only; a byte order mark is not ASCII.
  let first = 0;
  while (first < bytes.length && (bytes[first] === 0x20 || (bytes[first]! >= 0x09 && bytes[first]! <= 0x0d))) first++;
  if (bytes[first] !== 0x7b && bytes[first] !== 0x5b) return undefined;
  const ranges: number[] = [];
  nonAsciiRanges(bytes, 0, bytes.length, ranges);
  let text = '';
  let done = 0;
  for (let r = 0; r < ranges.length; r += 2) {
    // A sequence may run past its range: the next range starts after it.
    for (let i = Math.max(done, ranges[r]!); i < ranges[r + 1]!; i++) {
      if (bytes[i]! < 0x80) continue;
      const got = codePointAt(bytes, i);
      if (!got) return undefined;
      const [cp, length] = got;
      const char = String.fromCodePoint(cp);
      if (SPACE.test(char)) return undefined;
      text += bytes.toString('latin1', done, i);
      text += cp > 0xffff ? hex4(char.charCodeAt(0)) + hex4(char.charCodeAt(1)) : hex4(cp);
      done = i + length;
      i = done - 1;
    }
  }
  return text + bytes.toString('latin1', done);
}
