// Stored records of OpenAPI specs. The spec row is small and lives in its organization's shard;
// the source text waiting to be processed and the version rows live in the spec's own shard
// (`openapi/<specId>`), and the parsed documents of each version in a file beside the store
// (content-files.ts), so that large specs never make the organization's writes slower.

export type ProcessingState = 'pending' | 'progress' | 'complete';
export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
export type SpecVisibility = 'private' | 'public';

export interface ProcessError {
  message: string;
  code?: string;
}

export interface OpenAPISpecRecord {
  id: string;
  organization: string;
  slug: string;
  /** `<organization>/<slug>`, indexed: the slug is unique per organization. */
  key: string;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  visibility: SpecVisibility;
  /** Set when the source is a URL; a text source keeps its text in OpenAPISourceRecord. */
  sourceURL?: string;
  processingState: ProcessingState;
  /** Bumped by every create/put: the result of processing an older source is discarded. */
  generation: number;
  /** How many versions were ever created: the next version's sequence number. */
  versionCount: number;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: ProcessError[];
  /** Every error the last processing found (lastProcessedErrors keeps the first 50). */
  lastProcessedErrorCount?: number;
}

/** The text of a text source, kept only until its processing has finished. Row id = spec id. */
export interface OpenAPISourceRecord {
  id: string;
  spec: string;
  generation: number;
  text: string;
}

export interface OpenAPIVersionRecord {
  id: string;
  spec: string;
  organization: string;
  /** 1, 2, 3 ... in creation order: newest first does not depend on the clock's resolution. */
  seq: number;
  createdAt: string;
  /** SHA-256 of the stored filesystem: identical content makes no new version. */
  hash: string;
  /** The URL the spec was fetched from (after redirects); absent for a text source. */
  sourceURL?: string;
  files: string[];
  /**
   * The entrypoint's text as submitted (fetched or given) is kept beside the parsed documents
   * (content-files.ts), in this format; absent for versions made before it was kept.
   */
  rawFormat?: 'json' | 'yaml';
}

export const specKey = (organization: string, slug: string) => `${organization}/${slug}`;
