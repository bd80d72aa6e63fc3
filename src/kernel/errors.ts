// One error type for the whole domain. Services throw a kind; only the edges (HTTP server,
// CLI) turn it into a status or an exit code, from the single table below (DESIGN.md).
export type ErrorKind =
  | 'invalid' // bad input
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict' // no change, duplicate, merge conflict
  | 'precondition'
  | 'too_large'
  | 'rate_limited' // too many failed authentications, or a token over its limit (docs serve)
  | 'misdirected' // a Host header this server does not answer for (docs serve)
  | 'unavailable' // e.g. the data directory is held by another process
  | 'not_implemented' // an operation of the contract's specs that this server does not serve
  | 'bug';

const TABLE: Record<ErrorKind, { status: number; exit: number }> = {
  invalid: { status: 400, exit: 2 },
  unauthenticated: { status: 401, exit: 4 },
  forbidden: { status: 403, exit: 4 },
  not_found: { status: 404, exit: 3 },
  method_not_allowed: { status: 405, exit: 2 },
  conflict: { status: 409, exit: 5 },
  precondition: { status: 412, exit: 5 },
  too_large: { status: 413, exit: 2 },
  rate_limited: { status: 429, exit: 1 },
  misdirected: { status: 421, exit: 2 },
  unavailable: { status: 503, exit: 1 },
  not_implemented: { status: 501, exit: 1 },
  bug: { status: 500, exit: 1 },
};

export class DocsError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = 'DocsError';
  }
  get status(): number {
    return TABLE[this.kind].status;
  }
  get exitCode(): number {
    return TABLE[this.kind].exit;
  }
  /** The contract's error body: `{"error":{"code","message"}}`. */
  toBody(): ErrorBody {
    return { error: { code: this.status, message: this.message } };
  }
}

export interface ErrorBody {
  error: { code: number; message: string };
}

export const invalid = (message: string) => new DocsError('invalid', message);
export const notFound = (message: string) => new DocsError('not_found', message);
export const forbidden = (message: string) => new DocsError('forbidden', message);
export const conflict = (message: string) => new DocsError('conflict', message);

/** Anything that is not a DocsError is a bug: its details stay out of the message. */
export function asDocsError(err: unknown): DocsError {
  if (err instanceof DocsError) return err;
  const e = new DocsError('bug', 'internal error', { cause: err });
  if (err instanceof Error && err.stack) e.stack = err.stack;
  return e;
}

/** Maps an HTTP status received from a server back to a kind (for the HTTP transport). */
export function kindForStatus(status: number): ErrorKind {
  for (const [kind, v] of Object.entries(TABLE) as [ErrorKind, { status: number }][]) {
    if (v.status === status) return kind;
  }
  return status >= 500 ? 'bug' : 'invalid';
}
