// Questions asked of the documentation and the answers given (docs/manual/ask.md). Kept in the
// organization's own `ask/<organization>` shard, so a busy site's questions never slow the
// organization's other writes; bounded (ASK_LIMITS), the least asked and oldest going first.

/**
 * A question, counted: one row per organization, site (null: asked of the organization) and
 * normalized text (lowercase, spaces and end punctuation folded), so the same question asked again
 * adds to its count. Its id is `<organization>.<hash>` (the shard is in the id).
 */
export interface AskQuestionRecord {
  id: string;
  organization: string;
  site: string | null;
  /** The site space it was asked from (`context.siteSpaceId`), when given. */
  siteSpace?: string;
  /** As last asked. */
  text: string;
  count: number;
  /** False when the last answer found no good source: flagged, and never recommended. */
  answered: boolean;
  firstAskedAt: string;
  lastAskedAt: string;
}

/** A page an answer quoted (docs/manual/ask.md#site-questions-and-answers). */
export interface AskSourceRecord {
  space: string;
  page: string;
  /** The space's revision the answer was built from. */
  revision: string;
  title: string;
  /** Its share of the answer: its section's coverage of the question over the sum of all sources' (0..1). */
  weight: number;
}

/**
 * A site's answer, kept: an AI response (streamAIResponseInSite), which can be streamed again
 * (streamExistingAIResponseInSite) and continued (`previousResponseId`), or an answer of
 * streamAskInSite (`kind: 'ask'`). Both are the site's answers (listSiteQuestionAnswers); the
 * question row they count for is found from `question` and `siteSpace` (questionId). Its id is
 * `<organization>.<random>`.
 */
export interface AskResponseRecord {
  id: string;
  organization: string;
  site: string;
  /** Absent: an AI response (rows written before answers of streamAskInSite were kept). */
  kind?: 'ask' | 'response';
  /** The site space it was asked from, when given (streamAskInSite's `context.siteSpaceId`). */
  siteSpace?: string;
  messageId: string;
  question: string;
  previous?: string;
  /** The answer, one markdown block group per streamed document event. */
  parts: string[];
  suggestions: string[];
  /** True when no good source was found (the answer says so). */
  noSource: boolean;
  /** Pages quoted: `space/page` in rows written before sources were kept whole. */
  sources: (string | AskSourceRecord)[];
  createdAt: string;
}

export const ASK_LIMITS = {
  /** Longest question (characters), as the contract's `question` of streamAskInSite. */
  question: 512,
  /** Longest input message of an AI response (the contract's `content`). */
  message: 2048,
  /** Questions kept per organization (the least asked, then oldest, dropped beyond). */
  questions: 1000,
  /** A site's answers (AI responses and asks) kept per organization (the oldest dropped beyond). */
  responses: 1000,
};
