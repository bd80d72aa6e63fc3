// The two string orders the CLI sorts its output by, ICU's ('en'), without creating an ICU
// collator for strings of printable ASCII: the first Intl.Collator of a process loads ICU's
// collation data, 10 to 20 ms, a third of `node -e 0`, paid by every `docs content check` and
// `docs openapi diff` for names that are nearly always ASCII (issue 30). Any other character
// (accents, control characters, other scripts) goes to the ICU collator, created then.
// test/kernel/collate.test.ts checks both against Intl.Collator on every pair of short strings
// and on random longer ones.

// Printable ASCII in the primary order of ICU's root collation (which 'en' uses unchanged):
// spaces, punctuation, symbols, digits, then letters, a letter and its capital equal at this level.
const PRIMARY_ORDER = ' _-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz';
const RANK = new Uint8Array(128);
for (let i = 0; i < PRIMARY_ORDER.length; i++) {
  const c = PRIMARY_ORDER.charCodeAt(i);
  RANK[c] = i + 1;
  if (c >= 0x61 && c <= 0x7a) RANK[c - 32] = i + 1;
}
/** Every digit run has the digits' place among the other characters (numeric collation). */
const DIGITS = RANK[0x30]!;

const printableAscii = (s: string) => /^[\x20-\x7e]*$/.test(s);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;

let icu: Intl.Collator | undefined;
let icuNatural: Intl.Collator | undefined;

/**
 * `new Intl.Collator('en').compare`: letters before their capitals only when nothing else
 * differs (`a` < `A` < `b`), punctuation before digits before letters.
 */
export function collate(a: string, b: string): number {
  if (!printableAscii(a) || !printableAscii(b)) return (icu ??= new Intl.Collator('en')).compare(a, b);
  return asciiCollate(a, b);
}

/**
 * For sorting many strings: a key per string whose plain order (`<`, code unit by code unit, in
 * the engine, not a loop of ours) is `collate`'s (or with `natural`, `naturalCollate`'s), as ICU's
 * sort keys are; undefined when a string is not printable ASCII (then sort with the comparator).
 * Primary weights, then (not natural) a 0 and the case of each character.
 */
export function collationKeys(strings: readonly string[], natural = false): string[] | undefined {
  if (!strings.every(printableAscii) || (natural && strings.some((s) => /\d{201}/.test(s)))) return undefined;
  return strings.map(natural ? naturalKey : collationKey);
}

const weight = (c: number) => String.fromCharCode(RANK[c]!);

/** The bytes of a key being made (grown as needed): every weight is below 0x80, so a key is read back as latin1 in one call. */
let units = Buffer.allocUnsafe(256);

function collationKey(s: string): string {
  const n = s.length;
  if (units.length < 2 * n + 1) units = Buffer.allocUnsafe(4 * n + 2);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    units[i] = RANK[c]!;
    units[n + 1 + i] = isUpper(c) ? 0x32 : 0x31;
  }
  // The 0 ends the primary weights (all above it): a string that is a prefix of another comes first.
  units[n] = 0;
  return units.toString('latin1', 0, 2 * n + 1);
}

function naturalKey(s: string): string {
  let key = '';
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) {
      key += weight(c);
      i++;
      continue;
    }
    // A run of digits: the digits' weight, its length without leading zeros, its digits.
    while (i < s.length && s.charCodeAt(i) === 0x30) i++;
    let end = i;
    while (end < s.length && isDigit(s.charCodeAt(end))) end++;
    key += String.fromCharCode(DIGITS, 0x100 + end - i) + s.slice(i, end);
    i = end;
  }
  return key;
}

function asciiCollate(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = RANK[a.charCodeAt(i)]!;
    const y = RANK[b.charCodeAt(i)]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  // Equal but for case: the first letter whose case differs decides, small first.
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return isUpper(x) ? 1 : -1;
  }
  return 0;
}

/**
 * `new Intl.Collator('en', { numeric: true, sensitivity: 'base' }).compare`: case ignored, a run
 * of digits compared as the number it writes (`page-2` < `page-10`, `01` = `1`).
 */
export function naturalCollate(a: string, b: string): number {
  if (!printableAscii(a) || !printableAscii(b)) return (icuNatural ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' })).compare(a, b);
  return asciiNatural(a, b);
}

function asciiNatural(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (isDigit(x) && isDigit(y)) {
      // Leading zeros do not count; then the longer number is the greater, else digit by digit.
      while (i < a.length && a.charCodeAt(i) === 0x30) i++;
      while (j < b.length && b.charCodeAt(j) === 0x30) j++;
      let ei = i;
      let ej = j;
      while (ei < a.length && isDigit(a.charCodeAt(ei))) ei++;
      while (ej < b.length && isDigit(b.charCodeAt(ej))) ej++;
      // ICU splits runs past 254 digits; none are that long here, and ICU is asked if one is.
      if (ei - i > 200 || ej - j > 200) return (icuNatural ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' })).compare(a, b);
      if (ei - i !== ej - j) return ei - i < ej - j ? -1 : 1;
      for (; i < ei; i++, j++) {
        const d = a.charCodeAt(i) - b.charCodeAt(j);
        if (d) return d < 0 ? -1 : 1;
      }
      continue;
    }
    const rx = isDigit(x) ? DIGITS : RANK[x]!;
    const ry = isDigit(y) ? DIGITS : RANK[y]!;
    if (rx !== ry) return rx < ry ? -1 : 1;
    i++;
    j++;
  }
  if (i < a.length) return 1;
  if (j < b.length) return -1;
  return 0;
}
