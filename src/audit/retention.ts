// How long an organization's audit events are kept (docs/manual/audit.md#retention): the newest
// MAX_EVENTS, none older than MAX_AGE_DAYS. Reads never show an event past either bound; the
// rows themselves are dropped by the write that records an event, in batches (once the count is
// a tenth over, or the oldest a tenth of the age past it), so a write rarely rewrites old segments.

export const DEFAULT_MAX_EVENTS = 5000;
export const DEFAULT_MAX_AGE_DAYS = 90;

const positive = (v: string | undefined, fallback: number) => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

let current: { maxEvents: number; maxAgeMs: number } | undefined;

/**
 * The bounds in force: `DOCS_AUDIT_MAX_EVENTS` and `DOCS_AUDIT_MAX_AGE_DAYS` change the defaults.
 * Read once per turn of the event loop: every recording write asks, and reading `process.env`
 * is not free (the writes of one group commit run in one turn); a change is seen at the next.
 */
export function retention(): { maxEvents: number; maxAgeMs: number } {
  if (!current) {
    current = {
      maxEvents: positive(process.env.DOCS_AUDIT_MAX_EVENTS, DEFAULT_MAX_EVENTS),
      maxAgeMs: positive(process.env.DOCS_AUDIT_MAX_AGE_DAYS, DEFAULT_MAX_AGE_DAYS) * 86_400_000,
    };
    setImmediate(() => (current = undefined)).unref();
  }
  return current;
}
