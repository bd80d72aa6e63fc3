import type { OperationInput } from '../contract/validate.js';

export interface CallResult {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * How a command reaches the API. Both implementations end in the same `invoke`: in this process
 * (local) or in a `docs serve` process (http). Commands never know which one they have.
 */
export interface Transport {
  /** Calls one operation; a non-2xx answer is thrown as a DocsError of the matching kind. */
  call(operationId: string, input?: OperationInput): Promise<CallResult>;
  /**
   * Calls an operation that answers server-sent events (ask): its events, each as it arrives. A
   * non-2xx answer is thrown as for `call`. (`call` on such an operation gives the list of them.)
   */
  stream(operationId: string, input?: OperationInput): AsyncIterable<unknown>;
  /** Sends any request (for `docs api`); answers are returned whatever their status. */
  request(method: string, path: string, input?: { query?: Record<string, unknown>; body?: unknown }): Promise<CallResult>;
  /**
   * A route of this server outside the contract (`/_docs/tokens`, `/_docs/deleted-spaces`; src/docs-routes.ts), as the caller; a non-2xx
   * answer is thrown as a DocsError of the matching kind.
   */
  docs(method: string, path: string, input?: { query?: Record<string, unknown>; body?: unknown }): Promise<CallResult>;
  /** Where calls go, for people: "local data directory …" or the API URL. */
  readonly target: string;
  readonly remote: boolean;
  /**
   * Runs the store's background workers (OpenAPI processing) in this process until close, for
   * a command that waits for their work; only a transport holding the store has any (a server
   * runs its own).
   */
  runWorkers?(): void;
  /**
   * The bytes at a file's `downloadURL` or a PDF export's `url` (signed URLs of the server that gave them). In process,
   * read from the data directory after the same signature check the server makes.
   */
  download(url: string): Promise<Buffer>;
  /**
   * Sends a file's bytes to an upload URL of the server that gave it (generateStorageUploadURL:
   * docs/manual/site-delivery.md#uploading-a-font-file). In process, the same checks run on the data directory.
   */
  upload(url: string, bytes: Buffer): Promise<void>;
  close(): Promise<void>;
}
