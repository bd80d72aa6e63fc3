import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import type { Terms } from './model.js';
import { cut } from './vectors.js';

// The text side of the deterministic method (docs/manual/conversations.md): message bodies
// (markdown or HTML) -> plain text -> stemmed content terms -> a weighted term vector. No
// randomness, no model: the same input always gives the same vectors.

// Words of chat courtesy and of asking for help in general: frequent in every support
// conversation, so they say nothing about its topic and would pull unrelated ones together.
const CHAT_WORDS = [
  'hi',
  'hello',
  'hey',
  'thanks',
  'thank',
  'please',
  'help',
  'question',
  'questions',
  'issue',
  'problem',
  'anyone',
  'someone',
  'know',
  'tell',
  'try',
  'tried',
  'trying',
  'want',
  'need',
  'get',
  'got',
  'getting',
  'use',
  'using',
  'used',
  'able',
  'way',
  'also',
  'still',
  'just',
  'really',
  'like',
  'make',
  'work',
  'works',
  'working',
  'seem',
  'seems',
  'can',
  'cannot',
  'could',
  'would',
  'should',
  'will',
  'does',
  'doesn',
  'don',
  'didn',
  'isn',
  'won',
  'thing',
  'things',
  'something',
  'anything',
  'ok',
  'okay',
  'yes',
  'one',
  'since',
];
// stopword's module holds the lists of 60 languages (~100 ms to load): required on first use, so
// that neither a request nor the site scan worker's start pays for it before a text is read.
const require = createRequire(import.meta.url);
let STOP: Set<string> | undefined;
const stopwords = (): Set<string> => (STOP ??= new Set([...(require('stopword') as typeof import('stopword')).eng, ...CHAT_WORDS]));

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
    if (word.length < 3 || /^\d+$/.test(word) || stopwords().has(word)) continue;
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

/** The first sentence of a text (or its first `max` characters, cut at a word). */
export function firstSentence(text: string, max: number): string {
  const m = /^(.+?[.!?])(\s|$)/.exec(text);
  return cut(m ? m[1]! : text, max);
}
