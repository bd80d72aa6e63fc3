import { contentWords, plainText } from '../conversations/words.js';
import type { Passage } from '../search/service.js';

// An answer built from the search engine's passages, with no model: the best sections for the
// question, each quoted (its sentences holding the most of the question's words) under a link to
// its page. Deterministic: the same content and question give the same answer, word for word.
// docs/manual/ask.md#how-an-answer-is-built

/** Sections quoted in one answer (one per page), sentences quoted per section, characters per sentence. */
export const ANSWER_LIMITS = { sources: 3, sentences: 2, sentence: 320, coverage: 0.5 };

export interface Keywords {
  /** The words searched (surface forms). */
  words: string[];
  /** Their stems (what a section must hold). */
  stems: string[];
}

/** The content words of a question (stopwords and one- or two-letter words dropped). */
export function keywordsOf(question: string): Keywords {
  const found = contentWords(question);
  const stems = [...new Set(found.map((w) => w.stem))];
  return { words: [...new Set(found.map((w) => w.word))], stems };
}

export interface QuotedSource {
  passage: Passage;
  /** The quoted sentences, in the section's order. */
  quote: string[];
  /** Share of the question's words the section holds (0..1). */
  coverage: number;
}

export interface BuiltAnswer {
  /** True when no section held enough of the question's words: the answer says so. */
  noSource: boolean;
  /** Each source's part of the answer (markdown), in order; for no source, the one part saying so. */
  parts: string[];
  sources: QuotedSource[];
  /** Pages found but not quoted (followups name them). */
  more: Passage[];
}

const stemsOf = (text: string) => new Set(contentWords(text).map((w) => w.stem));

/** Sentences of a section's text (markdown made plain), in order. */
function sentences(markdown: string): string[] {
  const text = plainText(markdown);
  return (text.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

const cut = (s: string, max: number) => (s.length <= max ? s : s.slice(0, s.lastIndexOf(' ', max - 1) > max / 2 ? s.lastIndexOf(' ', max - 1) : max - 1) + '…');

/**
 * The answer to a question from the passages the engine found (best first): the sections holding
 * at least ANSWER_LIMITS.coverage of its words, one per page, ranked by that share then by the
 * engine's rank; none: an answer saying the documentation has no good source (`noSource`).
 */
export function buildAnswer(question: string, keys: Keywords, passages: readonly Passage[], linkOf: (p: Passage) => string): BuiltAnswer {
  const want = keys.stems;
  const scored = passages.map((p, rank) => {
    const have = stemsOf(`${p.pageTitle} ${p.title} ${p.body}`);
    const hits = want.filter((s) => have.has(s)).length;
    return { p, rank, coverage: want.length ? hits / want.length : 0 };
  });
  const good = scored.filter((s) => s.coverage >= ANSWER_LIMITS.coverage && s.coverage > 0).sort((a, b) => b.coverage - a.coverage || a.rank - b.rank);
  const pages = new Set<string>();
  const chosen: typeof good = [];
  for (const s of good) {
    const key = `${s.p.space.id}/${s.p.page}`;
    if (pages.has(key)) continue;
    pages.add(key);
    chosen.push(s);
    if (chosen.length >= ANSWER_LIMITS.sources) break;
  }
  const more: Passage[] = [];
  for (const s of scored) {
    const key = `${s.p.space.id}/${s.p.page}`;
    if (pages.has(key)) continue;
    pages.add(key);
    more.push(s.p);
  }
  if (!chosen.length) {
    const near = more.slice(0, 3);
    const nearText = near.length ? ` The closest pages are ${near.map((p) => `[${mdText(p.pageTitle)}](${linkOf(p)})`).join(', ')}.` : '';
    return {
      noSource: true,
      parts: [`I could not find a good source for “${mdText(question.trim())}” in the documentation you can read.${nearText}`],
      sources: [],
      more,
    };
  }
  const sources = chosen.map((s) => ({ passage: s.p, quote: quoteOf(s.p, want), coverage: s.coverage }));
  const parts = sources.map(({ passage: p, quote }) => {
    const where = p.title && p.title !== p.pageTitle ? `${p.pageTitle} › ${p.title}` : p.pageTitle;
    const head = `**[${mdText(where)}](${linkOf(p)})**`;
    return quote.length ? `${head}\n\n> ${quote.map(mdText).join(' ')}` : head;
  });
  return { noSource: false, parts, sources, more };
}

/** The sentences of a section holding the most of the question's words (its first, when none does), in order. */
function quoteOf(p: Passage, want: readonly string[]): string[] {
  const list = sentences(p.body);
  if (!list.length) return [];
  const wanted = new Set(want);
  const scored = list.map((s, i) => {
    let n = 0;
    for (const st of stemsOf(s)) if (wanted.has(st)) n++;
    return { s, i, n };
  });
  const best = scored
    .filter((x) => x.n > 0)
    .sort((a, b) => b.n - a.n || a.i - b.i)
    .slice(0, ANSWER_LIMITS.sentences);
  const picked = best.length ? best : [scored[0]!];
  return picked.sort((a, b) => a.i - b.i).map((x) => cut(x.s, ANSWER_LIMITS.sentence));
}

/** Text safe inside markdown (no link, emphasis or HTML syntax taken from the content). */
export function mdText(s: string): string {
  return s.replace(/([\\`*_[\]<>|#])/g, '\\$1').replace(/\s+/g, ' ');
}

/** A question's text folded for counting: lowercase, spaces collapsed, end punctuation dropped. */
export function normalizeQuestion(q: string): string {
  return q
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?!.]+$/, '')
    .trim();
}

/** Shares a stem with the question (related stored questions become followups). */
export function related(a: Keywords, text: string): number {
  const other = stemsOf(text);
  return a.stems.filter((s) => other.has(s)).length;
}
