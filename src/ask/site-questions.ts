import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { Spaces } from '../spaces/tables.js';
import type { ReadTx } from '../store/port.js';
import { keywordsOf, normalizeQuestion } from './answer.js';
import type { AskQuestionRecord, AskResponseRecord, AskSourceRecord } from './model.js';
import { questionId } from './service.js';
import { AskQuestions, AskResponses } from './tables.js';

// A site's questions and answers as the contract reads them (the site-questions operations of
// 0.202.0): the rows ask keeps (model.ts), read here and nowhere copied. A question is an
// AskQuestionRecord of the site; an answer, an AskResponseRecord of the site (an ask's answer or
// an AI response). What GitBook classifies with a model is classified here by fixed rules, so the
// same questions always give the same figures. docs/manual/ask.md#site-questions-and-answers

export type QuestionType = Schema<'SiteQuestionType'>;
export type Relevance = Schema<'SiteQuestionAnswerRelevance'>;
export type Resolution = Schema<'SiteQuestionAnswerResolution'>;
export type Helpfulness = Schema<'SiteQuestionAnswerHelpfulness'>;

/**
 * A question's type, by its words (the first rule that matches): troubleshooting (a failure or
 * a "why"), how-to (how / steps / can I), exploring (possible, compare, overview, explain),
 * reference (what is, which, where, when, who, list, does), else unknown.
 */
export function questionType(text: string): QuestionType {
  const t = text.toLowerCase().replace(/[’]/g, "'").trim();
  if (/\b(errors?|fail(s|ed|ing|ure)?|broken|crash\w*|not work\w*|doesn't work|don't work|won't|can't|cannot|unable|issues?|problems?|fix|wrong|why)\b/.test(t))
    return 'troubleshooting';
  if (/^(how|steps?\b|can i|could i|may i)\b|\bhow (do|does|can|to|should)\b|\bsteps to\b/.test(t)) return 'how-to';
  if (/\b(is it possible|possible|compare|comparison|difference|differences|overview|explain|tell me about|alternatives?|should i)\b/.test(t))
    return 'exploring';
  if (/^(what|which|where|when|who|whose|list|does|do|is|are|define)\b/.test(t)) return 'reference';
  return 'unknown';
}

/** Unclear: a question with no content word to search (only stopwords, one- or two-letter words); else relevant. */
export const relevanceOf = (text: string): Relevance => (keywordsOf(text).words.length ? 'relevant' : 'unclear');

/** No: the answer found no good source (it says so); yes otherwise. */
export const resolutionOf = (a: AskResponseRecord): Resolution => (a.noSource ? 'no' : 'yes');

/** By the pages quoted: none, low; one, medium; two or more, high. */
export function helpfulnessOf(a: AskResponseRecord): Helpfulness {
  if (a.noSource || !a.sources.length) return 'low';
  return a.sources.length === 1 ? 'medium' : 'high';
}

/** Every answer is made through this server's API (the published site asks through it too): channel `site`. */
const CHANNEL = 'site' as const;

/** The question row an answer counts for (it may have been dropped since: the least asked go first). */
export const questionOfAnswer = (a: AskResponseRecord) => questionId(a.organization, a.site, a.siteSpace, a.question);

/** The answer's thread: its first answer (following `previous` within the site). */
export function threadRoot(byId: Map<string, AskResponseRecord>, a: AskResponseRecord): AskResponseRecord {
  let at = a;
  const seen = new Set<string>();
  while (at.previous && !seen.has(at.id)) {
    seen.add(at.id);
    const prev = byId.get(at.previous);
    if (!prev) break;
    at = prev;
  }
  return at;
}

/** The filters of the site-questions operations (each optional). */
export interface AnswerFilter {
  from?: string;
  to?: string;
  relevance?: Relevance[];
  channelType?: string[];
  answered?: Resolution[];
  topic?: string[] | string;
}

/** A site's questions and answers, read once. */
export class SiteQuestions {
  readonly questions: AskQuestionRecord[];
  readonly answers: AskResponseRecord[];
  readonly byAnswer: Map<string, AskResponseRecord>;
  private readonly answersOf = new Map<string, AskResponseRecord[]>();

  constructor(
    readonly ctx: Context,
    readonly tx: ReadTx,
    readonly organization: string,
    readonly site: string,
  ) {
    this.questions = tx.find(AskQuestions, 'organization', organization).filter((q) => q.site === site);
    this.answers = tx
      .find(AskResponses, 'organization', organization)
      .filter((r) => r.site === site)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    this.byAnswer = new Map(this.answers.map((a) => [a.id, a]));
    for (const a of this.answers) {
      const q = questionOfAnswer(a);
      const list = this.answersOf.get(q);
      if (list) list.push(a);
      else this.answersOf.set(q, [a]);
    }
  }

  question(id: string): AskQuestionRecord {
    const q = this.questions.find((x) => x.id === id);
    if (!q) throw notFound(`site question ${id} not found in site ${this.site}`);
    return q;
  }

  answer(id: string): AskResponseRecord {
    const a = this.byAnswer.get(id);
    if (!a) throw notFound(`site question answer ${id} not found in site ${this.site}`);
    return a;
  }

  answersOfQuestion(id: string): AskResponseRecord[] {
    return this.answersOf.get(id) ?? [];
  }
}

/** 400 for a filter that can match nothing here: a range backwards, a topic (this server keeps no site topics). */
export function checkFilter(f: AnswerFilter, site: string): void {
  if (f.from !== undefined && f.to !== undefined && Date.parse(f.from) > Date.parse(f.to)) throw invalid(`from: ${f.from} is after to (${f.to})`);
  const topics = f.topic === undefined ? [] : Array.isArray(f.topic) ? f.topic : [f.topic];
  if (topics.length) throw invalid(`topic: no topic ${topics[0]} in site ${site} (this server keeps no site topics)`);
}

const inRange = (a: AskResponseRecord, f: AnswerFilter) =>
  (f.from === undefined || Date.parse(a.createdAt) >= Date.parse(f.from)) && (f.to === undefined || Date.parse(a.createdAt) <= Date.parse(f.to));

/** Does an answer pass the filters (the time range too when `withRange`)? */
export function answerMatches(a: AskResponseRecord, f: AnswerFilter, withRange = true): boolean {
  if (withRange && !inRange(a, f)) return false;
  if (f.relevance?.length && !f.relevance.includes(relevanceOf(a.question))) return false;
  if (f.channelType?.length && !f.channelType.includes(CHANNEL)) return false;
  if (f.answered?.length && !f.answered.includes(resolutionOf(a))) return false;
  return true;
}

/** Some answer filter (relevance, channel type, resolution) is given: a question needs an answer passing it. */
export const filtersAnswers = (f: AnswerFilter) => !!(f.relevance?.length || f.channelType?.length || f.answered?.length);

const WEEK_MS = 7 * 86_400_000;

/** The contract's SiteQuestionStats of `questions` (how many) and the answers given (the filtered ones). */
export function statsOf(now: number, questions: number, answers: readonly AskResponseRecord[]): Schema<'SiteQuestionStats'> {
  const answered = { yes: 0, partially: 0, no: 0 };
  const relevance = { relevant: 0, spam: 0, 'off-topic': 0, unclear: 0 };
  const types = { exploring: 0, 'how-to': 0, troubleshooting: 0, reference: 0, unknown: 0 };
  // Weeks ending now, the oldest first: index 12 counts the last 7 days.
  const weeklyPulse = Array.from({ length: 13 }, () => 0);
  for (const a of answers) {
    answered[resolutionOf(a)]++;
    relevance[relevanceOf(a.question)]++;
    types[questionType(a.question)]++;
    const week = Math.floor((now - Date.parse(a.createdAt)) / WEEK_MS);
    if (week >= 0 && week < 13) weeklyPulse[12 - week]++;
  }
  return {
    total: questions,
    answers: answers.length,
    // No feedback is collected on answers: every answer is unrated.
    feedback: { positive: 0, negative: 0, unrated: answers.length },
    answered,
    relevance,
    types,
    channelTypes: { site: answers.length, embed: 0, api: 0 },
    channels: {},
    weeklyPulse,
  };
}

/** A question as the contract's SiteQuestion, its stats over the answers given. */
export function presentQuestion(sq: SiteQuestions, q: AskQuestionRecord, answers: readonly AskResponseRecord[]): Schema<'SiteQuestion'> {
  return {
    object: 'site-question',
    id: q.id,
    question: q.text,
    type: questionType(q.text),
    createdAt: q.firstAskedAt,
    askedAt: q.lastAskedAt,
    stats: statsOf(sq.ctx.clock.now().getTime(), 1, answers),
    urls: { location: apiUrl(sq.ctx, `/orgs/${sq.organization}/sites/${sq.site}/questions/${encodeURIComponent(q.id)}`) },
  };
}

/** An answer as the contract's SiteQuestionAnswerWithResponse: the answer and its response (an AI message). */
export function presentAnswer(sq: SiteQuestions, a: AskResponseRecord, blocksOf: (part: string) => unknown[]): Schema<'SiteQuestionAnswerWithResponse'> {
  const root = threadRoot(sq.byAnswer, a);
  return {
    object: 'site-question-answer',
    id: a.id,
    question: { id: questionOfAnswer(a), type: questionType(a.question) },
    topics: [],
    input: { text: normalizeQuestion(a.question), raw: a.question },
    ...(a.previous ? { thread: { id: root.id, previous: a.previous } } : {}),
    responseId: a.id,
    // No language detection: the ISO 639 code for undetermined.
    language: 'und',
    answered: resolutionOf(a),
    helpfulness: helpfulnessOf(a),
    relevance: relevanceOf(a.question),
    channel: { type: CHANNEL },
    createdAt: a.createdAt,
    updatedAt: a.createdAt,
    urls: { location: apiUrl(sq.ctx, `/orgs/${sq.organization}/sites/${sq.site}/answers/${encodeURIComponent(a.id)}`) },
    response: {
      id: a.messageId,
      role: 'assistant',
      // One step per part, each the part's blocks (both specs' DocumentBlocksTopLevels, as markdownToDocument makes them).
      steps: a.parts.map((p) => ({ content: { object: 'document', data: {}, nodes: blocksOf(p) as any } })),
      response: { id: a.id, ...(a.previous ? { previous: a.previous } : {}) },
      createdAt: a.createdAt,
    },
  };
}

/** An answer's sources, whole (a row written before sources were kept whole: its pages, at their space's current revision, equal weights). */
export function sourcesOf(tx: ReadTx, a: AskResponseRecord): AskSourceRecord[] {
  return a.sources.map((s) => {
    if (typeof s !== 'string') return s;
    const [space, page] = s.split('/');
    return { space, page, revision: tx.get(Spaces, space)?.revision ?? '', title: page, weight: 1 / a.sources.length };
  });
}

/** A page source as the contract's SiteQuestionAnswerSource (its id: the space and page). */
export function presentSource(ctx: Context, s: AskSourceRecord): Schema<'SiteQuestionAnswerSource'> {
  return {
    object: 'site-question-answer-source',
    id: `${s.space}.${s.page}`,
    type: 'page',
    space: s.space,
    revision: s.revision,
    page: s.page,
    title: s.title,
    weight: s.weight,
    urls: { location: apiUrl(ctx, `/spaces/${s.space}/content/page/${s.page}`) },
  };
}

/**
 * The sources of several answers (a question's): each page once, its weight the sum of its
 * weights over the answers divided by their number, most weighty first; the latest revision quoted.
 */
export function mergedSources(tx: ReadTx, answers: readonly AskResponseRecord[]): AskSourceRecord[] {
  const byPage = new Map<string, AskSourceRecord>();
  for (const a of answers) {
    for (const s of sourcesOf(tx, a)) {
      const k = `${s.space}/${s.page}`;
      const had = byPage.get(k);
      byPage.set(k, had ? { ...s, weight: had.weight + s.weight } : { ...s });
    }
  }
  const n = answers.length || 1;
  return [...byPage.values()]
    .map((s) => ({ ...s, weight: s.weight / n }))
    .sort((a, b) => b.weight - a.weight || `${a.space}/${a.page}`.localeCompare(`${b.space}/${b.page}`));
}
