import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { defineOperation } from '../kernel/operation.js';
import type { Passage } from '../search/service.js';
import { agentInstructionsText } from '../sites/agents.js';
import { sectionsOf } from '../sites/rows.js';
import { membershipOf } from '../organizations/service.js';
import { Organizations } from '../organizations/tables.js';
import type { Schema } from '../contract/types.js';
import { answerQuestion, documentText, followupsOf, type Format, partBlocks, searchAIAnswer, type AnswerRun } from './run.js';
import type { AskResponseRecord } from './model.js';
import {
  askedQuestions,
  checkQuestion,
  organizationSpaces,
  questionOfInput,
  recommendedQuestions,
  recordQuestion,
  relatedQuestions,
  responseOf,
  saveResponse,
  sourcesOfAnswer,
  type SiteScope,
  type SiteSearch,
  siteSpaces,
} from './service.js';

// Ask: questions answered from the documentation, with their sources (docs/manual/ask.md). With
// no model, an answer quotes the search engine's best passages (extractive, deterministic); with
// one configured, the model writes it from the same passages. Streamed operations answer
// server-sent events (OperationResult.events; server/sse.ts). Every check (rights, scope, the
// question's length) is made before the first event, so a refusal is an ordinary error answer.

/** Links of an organization's answer: the page in the app. */
const appLink = (ctx: Context) => (p: Passage) => `${ctx.baseUrl}/o/${p.space.organization}/s/${p.space.id}/${p.path}`;

/** Links of a site's answer: the page on the published site (the app's page while it is not published). */
function siteLink(ctx: Context, s: SiteSearch, sections: Map<string, { path: string; default: boolean }>, orgKey: string) {
  const base = `${ctx.baseUrl}/sites/${encodeURIComponent(orgKey)}/${encodeURIComponent(s.site.basename)}`;
  return (p: Passage) => {
    const ss = s.siteSpaceOf.get(p.space.id);
    if (!s.site.published || !ss) return appLink(ctx)(p);
    const sec = ss.section ? sections.get(ss.section) : undefined;
    const sectionUrl = sec && !sec.default ? `${base}/${sec.path}` : base;
    const spaceUrl = ss.default ? sectionUrl : `${sectionUrl}/${ss.path}`;
    return p.path ? `${spaceUrl}/${p.path}` : spaceUrl;
  };
}

/** An organization's question: checked, answered over the spaces the caller may read. */
async function askOrganization(ctx: Context, caller: Caller, organizationId: string, text: string, field: string) {
  // Rights first (a non-member learns nothing, not even what a question may be), then the question.
  const { spaces, asked } = await ctx.store.read((tx) => ({
    spaces: organizationSpaces(tx, caller, organizationId),
    asked: askedQuestions(tx, organizationId, null),
  }));
  const question = checkQuestion(text, field);
  return answerQuestion(ctx, organizationId, spaces, question, appLink(ctx), (keys, built) => followupsOf(relatedQuestions(asked, keys, question, 2), built));
}

/** Counts the question (its row in the organization's ask shard); a site's answer is kept too (listSiteQuestionAnswers). */
const record = (ctx: Context, organization: string, site: string | null, run: AnswerRun, siteSpace?: string) =>
  ctx.store.write((tx) => {
    const now = ctx.clock.now().toISOString();
    recordQuestion(tx, now, { organization, site, siteSpace, text: run.question, answered: !run.built.noSource });
    if (site !== null) {
      saveResponse(tx, {
        organization,
        site,
        kind: 'ask',
        ...(siteSpace ? { siteSpace } : {}),
        messageId: `m${newId(19)}`,
        question: run.question,
        parts: run.built.parts,
        suggestions: run.followups,
        noSource: run.built.noSource,
        sources: sourcesOfAnswer(run.built),
        createdAt: now,
      });
    }
  });

/** The answer's stream: one event per part, each the whole answer so far (the contract's SearchAIAnswerStream). */
async function* answerStream(run: AnswerRun, format: Format, after: () => Promise<unknown>): AsyncGenerator<Schema<'SearchAIAnswerStream'>> {
  try {
    const n = run.model ? 1 : run.built.parts.length;
    for (let k = 1; k <= n; k++) yield { type: 'answer', answer: await searchAIAnswer(run, k === n ? run.built.parts.length : k, format) };
  } finally {
    await after();
  }
}

export const askInOrganization = defineOperation('askInOrganization', async ({ ctx, caller, path, query, body }) => {
  const run = await askOrganization(ctx, caller, path.organizationId, body.query, 'query');
  await record(ctx, path.organizationId, null, run);
  return { status: 200, body: { answer: await searchAIAnswer(run, run.built.parts.length, query.format) } };
});

export const streamAskInOrganization = defineOperation('streamAskInOrganization', async ({ ctx, caller, path, query }) => {
  const run = await askOrganization(ctx, caller, path.organizationId, query.query, 'query');
  return { status: 200, events: answerStream(run, query.format, () => record(ctx, path.organizationId, null, run)) };
});

/** An organization's recommended questions: others' questions only for members with a role (a guest reads nothing of the organization's own). */
async function organizationRecommendations(ctx: Context, caller: Caller, organizationId: string): Promise<string[]> {
  return ctx.store.read((tx) => {
    const spaces = organizationSpaces(tx, caller, organizationId);
    const { member } = membershipOf(tx, organizationId, caller);
    return recommendedQuestions(tx, member.role ? askedQuestions(tx, organizationId, null) : [], spaces);
  });
}

async function* questionEvents(questions: string[]): AsyncGenerator<Schema<'SearchAIRecommendedQuestionStream'>> {
  for (const question of questions) yield { question };
}

export const getRecommendedQuestionsInOrganization = defineOperation('getRecommendedQuestionsInOrganization', async ({ ctx, caller, path }) => ({
  status: 200,
  body: { questions: await organizationRecommendations(ctx, caller, path.organizationId) },
}));

export const streamRecommendedQuestionsInOrganization = defineOperation('streamRecommendedQuestionsInOrganization', async ({ ctx, caller, path }) => ({
  status: 200,
  events: questionEvents(await organizationRecommendations(ctx, caller, path.organizationId)),
}));

/** A site's question: the site spaces of its scope the caller may read, and how to link its pages. */
async function siteSearch(ctx: Context, caller: Caller, organizationId: string, siteId: string, scope: SiteScope | undefined) {
  return ctx.store.read((tx) => {
    const s = siteSpaces(tx, caller, organizationId, siteId, scope);
    const org = tx.get(Organizations, organizationId)!;
    const sections = new Map(sectionsOf(tx, s.site.id).map((r) => [r.id, r]));
    return {
      s,
      link: siteLink(ctx, s, sections, org.hostname ?? org.id),
      asked: askedQuestions(tx, organizationId, s.site.id),
      instructions: agentInstructionsText(tx, s.site.id),
    };
  });
}

async function askSite(ctx: Context, caller: Caller, organizationId: string, siteId: string, ask: () => string, scope: SiteScope | undefined) {
  // Rights and scope first, then the question (ask() throws for a bad one).
  const { s, link, asked, instructions } = await siteSearch(ctx, caller, organizationId, siteId, scope);
  const question = ask();
  // With a model, the site's instructions for agents go with the question (docs/manual/site-agents.md#agent-settings).
  const run = await answerQuestion(
    ctx,
    organizationId,
    s.spaces,
    question,
    link,
    (keys, built) => followupsOf(relatedQuestions(asked, keys, question, 2), built),
    instructions || undefined,
  );
  return { s, run };
}

export const streamAskInSite = defineOperation('streamAskInSite', async ({ ctx, caller, path, query, body }) => {
  const { s, run } = await askSite(ctx, caller, path.organizationId, path.siteId, () => checkQuestion(body.question, 'question'), body.scope as SiteScope);
  // The site space it was asked from, when it is one of this site's (a context, not a filter).
  const from = body.context?.siteSpaceId;
  const siteSpace = from && [...s.siteSpaceOf.values()].some((ss) => ss.id === from) ? from : undefined;
  return { status: 200, events: answerStream(run, query.format, () => record(ctx, path.organizationId, s.site.id, run, siteSpace)) };
});

export const streamRecommendedQuestionsInSite = defineOperation('streamRecommendedQuestionsInSite', async ({ ctx, caller, path, query }) => {
  const questions = await ctx.store.read((tx) => {
    const all = siteSpaces(tx, caller, path.organizationId, path.siteId, { mode: 'all' });
    let spaces = siteSpaces(tx, caller, path.organizationId, path.siteId, { mode: 'default' }).spaces;
    let siteSpace: string | undefined;
    if (query.siteSpaceId !== undefined) {
      const ss = [...all.siteSpaceOf.values()].find((x) => x.id === query.siteSpaceId);
      if (!ss) throw invalid(`siteSpaceId: site space ${query.siteSpaceId} is not in site ${path.siteId} (or you cannot read its space)`);
      siteSpace = ss.id;
      spaces = all.spaces.filter((sp) => sp.id === ss.space);
    } else if (query.spaceId !== undefined) {
      spaces = all.spaces.filter((sp) => sp.id === query.spaceId);
      if (!spaces.length) throw invalid(`spaceId: space ${query.spaceId} is not in site ${path.siteId} (or you cannot read it)`);
    }
    return recommendedQuestions(tx, askedQuestions(tx, path.organizationId, all.site.id, siteSpace), spaces);
  });
  return { status: 200, events: questionEvents(questions) };
});

/** The events of an AI response (the contract's AIStreamResponse): start, one document event per part, followups, finish. */
async function* responseEvents(r: AskResponseRecord): AsyncGenerator<Schema<'AIStreamResponse'>> {
  yield { type: 'response_start', messageId: r.messageId };
  for (const part of r.parts) {
    // Blocks of the Document markdownToDocument makes (both specs' DocumentBlocksTopLevels).
    const blocks = (await partBlocks(part)) as Extract<Schema<'AIStreamResponse'>, { type: 'response_document' | 'response_reasoning' }>['blocks'];
    yield { type: 'response_document', messageId: r.messageId, stepIndex: 0, operation: 'insert', blocks };
  }
  if (r.suggestions.length) yield { type: 'response_followup_suggestion', messageId: r.messageId, suggestions: r.suggestions };
  // `responseId` for 0.146.0 (required there), `response` for 0.202.0 (required there).
  yield { type: 'response_finish', messageId: r.messageId, responseId: r.id, response: { id: r.id, ...(r.previous ? { previous: r.previous } : {}) } };
}

export const streamAIResponseInSite = defineOperation('streamAIResponseInSite', async ({ ctx, caller, path, body }) => {
  const { s, run } = await askSite(
    ctx,
    caller,
    path.organizationId,
    path.siteId,
    () => questionOfInput(body.input as { role: string; content: unknown }[], documentText),
    { mode: 'default' },
  );
  if (body.previousResponseId !== undefined) await ctx.store.read((tx) => responseOf(tx, path.organizationId, path.siteId, body.previousResponseId!));
  const saved = await ctx.store.write((tx) => {
    recordQuestion(tx, ctx.clock.now().toISOString(), {
      organization: path.organizationId,
      site: s.site.id,
      text: run.question,
      answered: !run.built.noSource,
    });
    return saveResponse(tx, {
      organization: path.organizationId,
      site: s.site.id,
      kind: 'response',
      messageId: `m${newId(19)}`,
      question: run.question,
      ...(body.previousResponseId ? { previous: body.previousResponseId } : {}),
      parts: run.built.parts,
      suggestions: run.followups,
      noSource: run.built.noSource,
      sources: sourcesOfAnswer(run.built),
      createdAt: ctx.clock.now().toISOString(),
    });
  });
  return { status: 200, events: responseEvents(saved) };
});

export const streamExistingAIResponseInSite = defineOperation('streamExistingAIResponseInSite', async ({ ctx, caller, path }) => {
  const saved = await ctx.store.read((tx) => {
    siteSpaces(tx, caller, path.organizationId, path.siteId, { mode: 'all' }); // the read role on the site
    return responseOf(tx, path.organizationId, path.siteId, path.responseId);
  });
  return { status: 200, events: responseEvents(saved) };
});
