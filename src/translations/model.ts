// Stored record of a translation: small settings and state, in its organization's shard. Its
// result is an ordinary space of the same organization (created by the first successful run).

export type TranslationStatus = 'pending' | 'running' | 'completed';

/** Why the latest run failed (an extension of the contract's Translation, see docs/manual/translations.md). */
export interface RunError {
  code: 'NO_TRANSLATOR' | 'TRANSLATOR_ERROR' | 'TRANSLATOR_TIMEOUT' | 'SOURCE_MISSING' | 'TARGET_REFUSED';
  message: string;
  at: string;
}

export interface TranslationStats {
  runs: number;
  totalWords: number;
  totalPages: number;
  totalDuration: number;
  latestRunDuration: number;
  latestPages: number;
  latestWords: number;
}

export interface TranslationRecord {
  id: string;
  organization: string;
  source: { space: string; language: string };
  language: string;
  instructions: unknown;
  status: TranslationStatus;
  /** `waiting` from a run request until that run ends; indexed: what the runner takes up. */
  queue: 'waiting' | 'idle';
  /** Bumped by every run request: the end of an older run is dropped. */
  generation: number;
  /** Who asked for the latest run: the target space is created with their rights. */
  requestedBy?: string;
  startedAt?: string;
  /** The latest result: its space, revision, and the language it is in (0.202.0). */
  result?: { space: string; revision: string; language?: string };
  stats: TranslationStats;
  /** Source page ids ever translated, for `stats.totalPages` (unique pages). */
  pages: string[];
  error?: RunError;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

export const EMPTY_DOCUMENT = { object: 'document', data: {}, nodes: [] } as const;

export const NO_STATS: TranslationStats = { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 };

/** A term of the organization's translation glossary in several languages (src/translations/glossary.ts). */
export interface GlossaryEntryRecord {
  id: string;
  organization: string;
  /** Language code (lower case) -> the term in that language. */
  translations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}
