import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import type { Terms } from './model.js';

// The text side of the deterministic method (README "Conversations: how issues and clusters are
// made"): message bodies (markdown or HTML) -> plain text -> stemmed content terms -> a weighted
// term vector; similarity is the cosine of two vectors. No randomness, no model: the same input
// always gives the same vectors.

// Words of chat courtesy and of asking for help in general: frequent in every support
// conversation, so they say nothing about its topic and would pull unrelated ones together.
const CHAT_WORDS = [
  'hi', 'hello', 'hey', 'thanks', 'thank', 'please', 'help', 'question', 'questions', 'issue', 'problem',
  'anyone', 'someone', 'know', 'tell', 'try', 'tried', 'trying', 'want', 'need', 'get', 'got', 'getting',
  'use', 'using', 'used', 'able', 'way', 'also', 'still', 'just', 'really', 'like', 'make', 'work', 'works',
  'working', 'seem', 'seems', 'can', 'cannot', 'could', 'would', 'should', 'will', 'does', 'doesn', 'don',
  'didn', 'isn', 'won', 'thing', 'things', 'something', 'anything', 'ok', 'okay', 'yes', 'one', 'since',
];
const STOP = new Set([...eng, ...CHAT_WORDS]);

/** Plain text of a markdown or HTML message: code blocks, tags, link targets and URLs removed. */
export function plainText(body: string): string {
  return body
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/[#>*_`~|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Content words of a text, lowercased, each with its stem; stopwords and short tokens dropped. */
export function contentWords(text: string): { stem: string; word: string }[] {
  const out: { stem: string; word: string }[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []) {
    const word = raw.replace(/['’].*$/, '');
    if (word.length < 3 || /^\d+$/.test(word) || STOP.has(word)) continue;
    out.push({ stem: stemmer(word), word });
  }
  return out;
}

/** Weighted term vector: 1 + ln(count) per stem (sublinear, so one repeated word cannot dominate). */
export function termVector(words: { stem: string }[]): Terms {
  const counts: Record<string, number> = {};
  for (const { stem } of words) counts[stem] = (counts[stem] ?? 0) + 1;
  const v: Terms = {};
  for (const [stem, n] of Object.entries(counts)) v[stem] = 1 + Math.log(n);
  return v;
}

export function norm(v: Terms): number {
  let s = 0;
  for (const x of Object.values(v)) s += x * x;
  return Math.sqrt(s);
}

/** Cosine similarity, 0 when either vector is empty. */
export function cosine(a: Terms, b: Terms): number {
  const na = norm(a);
  const nb = norm(b);
  if (!na || !nb) return 0;
  const [small, large] = Object.keys(a).length <= Object.keys(b).length ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, x] of Object.entries(small)) dot += x * (large[k] ?? 0);
  return dot / (na * nb);
}

/** a + sign * b, dropping terms that fall to (about) zero. */
export function addTerms(a: Terms, b: Terms, sign: 1 | -1 = 1): Terms {
  const out: Terms = { ...a };
  for (const [k, x] of Object.entries(b)) {
    const y = (out[k] ?? 0) + sign * x;
    if (Math.abs(y) < 1e-9) delete out[k];
    else out[k] = y;
  }
  return out;
}

/** The `n` heaviest terms, ties by term, so the choice is deterministic. */
export function topTerms(v: Terms, n: number): string[] {
  return Object.entries(v)
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, n)
    .map(([k]) => k);
}

/** The first sentence of a text (or its first `max` characters, cut at a word). */
export function firstSentence(text: string, max: number): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  return cut(m ? m[1]! : text, max);
}

export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const at = head.lastIndexOf(' ');
  return (at > max / 2 ? head.slice(0, at) : head) + '…';
}
