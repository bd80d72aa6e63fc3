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

/**
 * An AI response given on a site (streamAIResponseInSite), kept so that it can be streamed again
 * (streamExistingAIResponseInSite) and continued (`previousResponseId`). Its id is
 * `<organization>.<random>`.
 */
export interface AskResponseRecord {
  id: string;
  organization: string;
  site: string;
  messageId: string;
  question: string;
  previous?: string;
  /** The answer, one markdown block group per streamed document event. */
  parts: string[];
  suggestions: string[];
  /** True when no good source was found (the answer says so). */
  noSource: boolean;
  /** Pages quoted, as `space/page`. */
  sources: string[];
  createdAt: string;
}

export const ASK_LIMITS = {
  /** Longest question (characters), as the contract's `question` of streamAskInSite. */
  question: 512,
  /** Longest input message of an AI response (the contract's `content`). */
  message: 2048,
  /** Questions kept per organization (the least asked, then oldest, dropped beyond). */
  questions: 1000,
  /** AI responses kept per organization (the oldest dropped beyond). */
  responses: 1000,
};
