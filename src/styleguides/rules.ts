import type { StyleguideFinding } from './model.js';

// The rules a style guide states, read from its pages' markdown, and the check of a page against
// them. Fixed rules, no model: the same style guide and page always give the same findings.
// docs/manual/styleguides.md#the-rules

export interface StyleRules {
  /** Words to avoid and what to write instead (from list items under a heading naming terms or words). */
  terms: { avoid: string; use: string }[];
  /** The case headings are written in ("sentence case" or "title case" said of headings). */
  headings?: 'sentence' | 'title';
  /** Most words in a sentence ("at most N words" said of sentences). */
  sentenceWords?: number;
}

const unquote = (s: string) =>
  s
    .trim()
    .replace(/^[“"'`*_]+|[”"'`*_.]+$/g, '')
    .trim();

/** The rules stated in a style guide's pages (markdown, in page order); later statements of a case or a length win. */
export function parseRules(markdowns: readonly string[]): StyleRules {
  const rules: StyleRules = { terms: [] };
  for (const md of markdowns) {
    let inTerms = false;
    for (const raw of md.split('\n')) {
      const line = raw.trim();
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      if (heading) {
        inTerms = /\b(terms?|words?|terminology|vocabulary)\b/i.test(heading[1]);
        continue;
      }
      // A term: `- Use "sign in", not "log in" or "login"` (quotes optional), under a terms heading.
      const item = /^[-*+]\s+(.*)$/.exec(line);
      if (inTerms && item) {
        const m = /^(?:use\s+)?(.+?),?\s+(?:not|instead of|rather than)\s+(.+)$/i.exec(item[1]);
        if (m) {
          const use = unquote(m[1]);
          for (const alt of m[2].split(/\s*(?:,|\bor\b)\s*/i)) {
            const avoid = unquote(alt);
            if (use && avoid && avoid.toLowerCase() !== use.toLowerCase()) rules.terms.push({ avoid, use });
          }
        }
      }
      if (/\bheadings?\b/i.test(line)) {
        if (/\bsentence[- ]case\b/i.test(line)) rules.headings = 'sentence';
        else if (/\btitle[- ]case\b/i.test(line)) rules.headings = 'title';
      }
      const len = /\bsentences?\b.*?\b(?:at most|no more than|fewer than|under|up to|maximum of)\s+(\d{1,3})\s+words\b/i.exec(line);
      if (len) rules.sentenceWords = Number(len[1]) - (/fewer than|under/i.test(len[0]) ? 1 : 0);
    }
  }
  return rules;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const termPattern = (avoid: string) => new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(avoid)}(?![\\p{L}\\p{N}_-])`, 'giu');

/** `use` written as `found` was: capitalized when it was. */
const likeFound = (found: string, use: string) => (/^\p{Lu}/u.test(found) ? use[0].toUpperCase() + use.slice(1) : use);

/** Code (fenced blocks, inline spans) and link targets are neither checked nor changed. */
function proseSpans(line: string): [number, number][] {
  const skip: [number, number][] = [];
  for (const m of line.matchAll(/`[^`]*`|\]\([^)]*\)|<[^>]+>|https?:\/\/\S+/g)) skip.push([m.index!, m.index! + m[0].length]);
  const out: [number, number][] = [];
  let at = 0;
  for (const [a, b] of skip) {
    if (a > at) out.push([at, a]);
    at = Math.max(at, b);
  }
  if (at < line.length) out.push([at, line.length]);
  return out;
}

const SMALL = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'nor', 'of', 'on', 'or', 'the', 'to', 'up', 'vs', 'via', 'with', 'is', 'if']);

/** The words of a heading breaking its case: a capital after the first word (sentence case), or a lowercase word that is not a small one (title case). */
function headingFault(text: string, kase: 'sentence' | 'title', keep: Set<string>): string | undefined {
  const words = text
    .replace(/`[^`]*`/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
  if (kase === 'sentence') {
    // Acronyms (two capitals or more), words with digits, and the style guide's own terms are kept as they are.
    const bad = words.slice(1).filter((w) => /^\p{Lu}\p{Ll}/u.test(w) && !keep.has(w.toLowerCase()));
    return bad.length ? `Heading "${text}" is not in sentence case: ${bad.map((w) => `"${w}"`).join(', ')} should be lowercase` : undefined;
  }
  const bad = words.filter((w, i) => /^\p{Ll}/u.test(w) && (i === 0 || !SMALL.has(w)));
  return bad.length ? `Heading "${text}" is not in title case: ${bad.map((w) => `"${w}"`).join(', ')} should be capitalized` : undefined;
}

export interface PageCheck {
  findings: Omit<StyleguideFinding, 'space' | 'page'>[];
  /** The page with every term to avoid replaced (undefined: no term found). */
  fixed?: string;
}

/** Checks one page's markdown against the rules: terms (fixed), headings' case, sentences' length (reported). */
export function checkPage(markdown: string, rules: StyleRules): PageCheck {
  const findings: PageCheck['findings'] = [];
  const keep = new Set(rules.terms.flatMap((t) => t.use.toLowerCase().split(/\s+/)));
  const lines = markdown.split('\n');
  let fence: string | undefined;
  let changed = false;
  const paragraph: { text: string; line: number }[] = [];
  const flush = () => {
    if (rules.sentenceWords !== undefined && paragraph.length) {
      const text = paragraph.map((p) => p.text).join(' ');
      for (const s of text.match(/[^.!?]+(?:[.!?]+(?=\s|$)|$)/g) ?? []) {
        const words = s
          .trim()
          .split(/\s+/)
          .filter((w) => /[\p{L}\p{N}]/u.test(w));
        if (words.length > rules.sentenceWords)
          findings.push({
            rule: 'sentence-length',
            line: paragraph[0].line,
            message: `Sentence of ${words.length} words (at most ${rules.sentenceWords}): "${s.trim().slice(0, 80)}${s.trim().length > 80 ? '…' : ''}"`,
          });
      }
    }
    paragraph.length = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (f) {
      flush();
      fence = f[1];
      continue;
    }
    // Terms: in prose, headings and lists alike.
    let out = '';
    let at = 0;
    for (const [a, b] of proseSpans(line)) {
      out += line.slice(at, a);
      let part = line.slice(a, b);
      for (const t of rules.terms) {
        part = part.replace(termPattern(t.avoid), (found) => {
          findings.push({ rule: 'term', line: i + 1, message: `"${found}": write "${likeFound(found, t.use)}"` });
          return likeFound(found, t.use);
        });
      }
      out += part;
      at = b;
    }
    out += line.slice(at);
    if (out !== line) {
      lines[i] = out;
      changed = true;
    }
    const h = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      const fault = rules.headings ? headingFault(h[1], rules.headings, keep) : undefined;
      if (fault) findings.push({ rule: 'heading', line: i + 1, message: fault });
      continue;
    }
    // Sentences: paragraphs of prose (not tables, quotes' markers and list markers stripped).
    if (!line.trim() || /^\s*\|/.test(line) || /^\s*(<|\{%)/.test(line)) flush();
    else {
      if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) flush();
      paragraph.push({ text: line.replace(/^\s*(>\s*)*([-*+]|\d+[.)])?\s*/, ''), line: i + 1 });
    }
  }
  flush();
  findings.sort((a, b) => a.line - b.line);
  return { findings, ...(changed ? { fixed: lines.join('\n') } : {}) };
}
