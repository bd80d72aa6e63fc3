// Stored records of conversations, the issues extracted from them and the clusters of issues.
// They live in the organization's own conversations shard (`conversations/<orgId>`), so that a
// busy support inbox never makes the organization's other writes slower.

export type Role = 'user' | 'assistant' | 'team-member';

export interface ConversationPart {
  type: 'message';
  role: Role;
  body: string;
}

export interface ConversationMetadata {
  url?: string;
  attributes?: Record<string, string>;
  createdAt?: string;
}

/** A term vector: stemmed term -> weight. */
export type Terms = Record<string, number>;

export interface ConversationRecord {
  id: string;
  organization: string;
  /** Who sent it: `integration:api:<userId>` for a user token (see docs/manual/conversations.md). */
  source: string;
  /** The ingester's id for it, unique within its source. */
  externalId: string;
  /** `<organization>\u0000<source>\u0000<externalId>`, indexed: re-ingesting updates, never duplicates. */
  key: string;
  subject?: string;
  metadata: ConversationMetadata;
  parts: ConversationPart[];
  /** metadata.createdAt, else the first ingestion time. */
  createdAt: string;
  /** Last time it was ingested (created or updated). */
  ingestedAt: string;
  /** Processing order: ingestion time plus position in its batch, so clustering is deterministic. */
  order: string;
  state: 'pending' | 'processed';
  /** Bumped by every ingestion: a processing result for an older content is dropped. */
  generation: number;
  processedAt?: string;
}

export interface IssueRecord {
  id: string;
  organization: string;
  conversation: string;
  /** Copied from the conversation, for the clusters' `sources` counts. */
  source: string;
  title: string;
  summary: string;
  /** When the conversation happened (the conversation's createdAt): the weekly pulse counts by it. */
  createdAt: string;
  ingestedAt: string;
  cluster: string;
  terms: Terms;
  /** stem -> a word as written, to show a cluster's terms readably. */
  display: Record<string, string>;
  /** Position of the issue within its conversation (0, 1, ...). */
  index: number;
}

export interface ClusterRecord {
  id: string;
  organization: string;
  /** Sum of the term vectors of its issues: its centroid, up to scale. */
  terms: Terms;
  createdAt: string;
  updatedAt: string;
}

export const CONVERSATIONS_SHARD = (organization: string) => `conversations/${organization}`;
