import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { SITE_READ, siteOf } from '../sites/access.js';
import type { ReadTx } from '../store/port.js';
import type { AskQuestionRecord, AskResponseRecord } from './model.js';
import { partBlocks } from './run.js';
import {
  type AnswerFilter,
  answerMatches,
  checkFilter,
  filtersAnswers,
  helpfulnessOf,
  mergedSources,
  presentAnswer,
  presentQuestion,
  presentSource,
  questionOfAnswer,
  questionType,
  SiteQuestions,
  sourcesOf,
  statsOf,
  threadRoot,
} from './site-questions.js';

// The site-questions operations (0.202.0): what visitors asked a site and the answers they were
// given, read from the rows ask keeps (site-questions.ts). Any member who sees the site (read and
// up) reads them, as the site's insights. docs/manual/ask.md#site-questions-and-answers

/** The site's questions and answers, after the read role on the site (404 for another organization's site). */
function siteQuestions(ctx: Context, tx: ReadTx, caller: Caller, organizationId: string, siteId: string): SiteQuestions {
  const { site } = siteOf(tx, caller, organizationId, siteId, SITE_READ, `reading the questions of site ${siteId}`);
  return new SiteQuestions(ctx, tx, organizationId, site.id);
}

/** A question belongs to a list or an aggregation: its type, and an answer passing the answer filters when any is given. */
function questionMatches(sq: SiteQuestions, q: AskQuestionRecord, f: AnswerFilter & { type?: string }, withRange: boolean): boolean {
  if (f.type !== undefined && questionType(q.text) !== f.type) return false;
  if (!filtersAnswers(f) && !(withRange && (f.from !== undefined || f.to !== undefined))) return true;
  return sq.answersOfQuestion(q.id).some((a) => answerMatches(a, f, withRange));
}

const rate = (n: number, of: number) => (of ? n / of : 0);

export const listSiteQuestions = defineOperation('listSiteQuestions', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    const f = query as AnswerFilter & { type?: string };
    checkFilter(f, sq.site);
    const rows = sq.questions
      .filter((q) => questionMatches(sq, q, f, false))
      .map((q) =>
        presentQuestion(
          sq,
          q,
          sq.answersOfQuestion(q.id).filter((a) => answerMatches(a, f)),
        ),
      );
    // Without `sort`, by creation (the question first asked); ties by id so that pages never overlap.
    const key: (q: (typeof rows)[number]) => number | string =
      query.sort === 'askedAt'
        ? (q) => q.askedAt
        : query.sort === 'stats.answered'
          ? (q) => rate(q.stats.answered.yes, q.stats.answers)
          : query.sort === 'stats.feedback'
            ? (q) => rate(q.stats.feedback.positive, q.stats.answers)
            : query.sort === 'stats.answers'
              ? (q) => q.stats.answers
              : (q) => q.createdAt;
    const dir = query.order === 'asc' ? 1 : -1;
    rows.sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return (x < y ? -1 : x > y ? 1 : 0) * dir || a.id.localeCompare(b.id);
    });
    return { status: 200, body: paginate(rows, query) };
  }),
);

export const getSiteQuestionById = defineOperation('getSiteQuestionById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    const q = sq.question(path.siteQuestionId);
    checkFilter(query, sq.site);
    return {
      status: 200,
      body: presentQuestion(
        sq,
        q,
        sq.answersOfQuestion(q.id).filter((a) => answerMatches(a, query)),
      ),
    };
  }),
);

export const listSiteQuestionSources = defineOperation('listSiteQuestionSources', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    const q = sq.question(path.siteQuestionId);
    checkFilter(query, sq.site);
    const answers = sq.answersOfQuestion(q.id).filter((a) => answerMatches(a, query));
    return { status: 200, body: paginate(mergedSources(tx, answers), query, (s) => presentSource(ctx, s)) };
  }),
);

export const getSiteQuestionStats = defineOperation('getSiteQuestionStats', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    checkFilter(query, sq.site);
    const questions = sq.questions.filter((q) => questionMatches(sq, q, query, true));
    const answers = questions.flatMap((q) => sq.answersOfQuestion(q.id).filter((a) => answerMatches(a, query)));
    return { status: 200, body: statsOf(ctx.clock.now().getTime(), questions.length, answers) };
  }),
);

/** The answers' responses as blocks (markdownToDocument is async: done outside the read). */
async function withBlocks(rows: readonly AskResponseRecord[]): Promise<(part: string) => unknown[]> {
  const parts = [...new Set(rows.flatMap((r) => r.parts))];
  const blocks = new Map(await Promise.all(parts.map(async (p) => [p, await partBlocks(p)] as const)));
  return (p) => blocks.get(p) ?? [];
}

export const listSiteQuestionAnswers = defineOperation('listSiteQuestionAnswers', async ({ ctx, caller, path, query }) => {
  const { sq, page } = await ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    const f = query as AnswerFilter;
    checkFilter(f, sq.site);
    if (query.question !== undefined && !sq.questions.some((q) => q.id === query.question) && !sq.answers.some((a) => questionOfAnswer(a) === query.question))
      throw invalid(`question: no question ${query.question} in site ${sq.site}`);
    const root = query.thread !== undefined ? sq.byAnswer.get(query.thread) : undefined;
    if (query.thread !== undefined && !root) throw invalid(`thread: no answer ${query.thread} in site ${sq.site}`);
    const rows = sq.answers
      .filter(
        (a) =>
          answerMatches(a, f) &&
          (query.question === undefined || questionOfAnswer(a) === query.question) &&
          (query.language === undefined || query.language === 'und') &&
          (query.helpfulness === undefined || helpfulnessOf(a) === query.helpfulness) &&
          (query['question.type'] === undefined || questionType(a.question) === query['question.type']) &&
          (!root || threadRoot(sq.byAnswer, a).id === root.id),
      )
      // The most recent first.
      .reverse();
    return { sq, page: paginate(rows, query) };
  });
  const blocks = await withBlocks(page.items);
  return { status: 200, body: { ...page, items: page.items.map((a) => presentAnswer(sq, a, blocks)) } };
});

export const getSiteQuestionAnswerById = defineOperation('getSiteQuestionAnswerById', async ({ ctx, caller, path }) => {
  const { sq, a } = await ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    return { sq, a: sq.answer(path.siteQuestionAnswerId) };
  });
  return { status: 200, body: presentAnswer(sq, a, await withBlocks([a])) };
});

export const getSiteQuestionAnswerThreadById = defineOperation('getSiteQuestionAnswerThreadById', async ({ ctx, caller, path }) => {
  const { sq, thread } = await ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    const root = threadRoot(sq.byAnswer, sq.answer(path.siteQuestionAnswerId));
    // The whole thread, the first answer first: every answer whose first is this one's first.
    return { sq, thread: sq.answers.filter((a) => threadRoot(sq.byAnswer, a).id === root.id) };
  });
  const blocks = await withBlocks(thread);
  return { status: 200, body: thread.map((a) => presentAnswer(sq, a, blocks)) };
});

export const listSiteQuestionAnswerSources = defineOperation('listSiteQuestionAnswerSources', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const sq = siteQuestions(ctx, tx, caller, path.organizationId, path.siteId);
    const a = sq.answer(path.siteQuestionAnswerId);
    const sources = sourcesOf(tx, a).sort((x, y) => y.weight - x.weight);
    return { status: 200, body: paginate(sources, query, (s) => presentSource(ctx, s)) };
  }),
);
