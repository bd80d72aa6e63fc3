// Generated documentation text for the benches: a natural (Zipf) word distribution over a
// 5,000-word vocabulary (a few words everywhere, most rare, as in real documentation), from a
// seeded generator so that every run indexes and stores the same text.
let seed = 42;
export const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const SYLLABLES = 'ka lo mi ne ru ta shi vo pe la di gor an el um ist ra fen bo ze'.split(' ');
const WORDS = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});
const ZIPF = (() => {
  const w = WORDS.map((_, i) => 1 / (i + 1));
  const total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();
export const pick = () => {
  const r = rand();
  let lo = 0;
  let hi = ZIPF.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF[mid] < r) lo = mid + 1;
    else hi = mid;
  }
  return WORDS[lo];
};
/** A query word of middle frequency (ranks 50..1000), what people search for. */
export const queryWord = () => WORDS[50 + Math.floor(rand() * 950)];
const sentence = (n) => Array.from({ length: n }, pick).join(' ');
/** A page body of about 1.3 KB: an introduction and two headed sections. */
export const body = (i) => `${sentence(40)}.\n\n## Setup ${i}\n\n${sentence(60)} unique${i}.\n\n## Details\n\n${sentence(80)}.\n`;

/**
 * The changes of updateChangeRequestContent that add pages [from, from + 50) of a space whose
 * pages come in sections of 50 (one parent page and 49 children).
 */
export function sectionChanges(s) {
  const changes = [{ operation: 'insert_page', ref: `s${s}`, title: `Section ${s} ${pick()}`, slug: `section-${s}`, document: { markdown: body(s * 50) } }];
  for (let i = 1; i < 50; i++)
    changes.push({
      operation: 'insert_page',
      into: `s${s}`,
      title: `Page ${s * 50 + i} ${pick()} ${pick()}`,
      slug: `page-${i}`,
      document: { markdown: body(s * 50 + i) },
    });
  return changes;
}
