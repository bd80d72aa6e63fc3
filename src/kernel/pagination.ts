import { invalid } from './errors.js';

/** One page size for every list when `limit` is not given. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export interface ListBody<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

export interface PageQuery {
  limit?: number;
  page?: string;
}

// The cursor is opaque to clients: a versioned, base64url-encoded offset. Decoding checks the
// shape strictly so that a forged or truncated cursor is a 400, never a silent first page.
function encodeCursor(offset: number): string {
  return Buffer.from(`p1:${offset}`).toString('base64url');
}

function decodeCursor(page: string): number {
  const text = /^[A-Za-z0-9_-]{1,64}$/.test(page) ? Buffer.from(page, 'base64url').toString() : '';
  const m = /^p1:(\d{1,9})$/.exec(text);
  if (!m) throw invalid('page: not a valid page cursor (use the value of next.page from a previous response)');
  return Number(m[1]);
}

/** Pages an already ordered list: `{items, count, next?}`; `count` is the total. */
/**
 * `first`: called with the page's items before any is mapped: what `map` reads of the store for
 * each item is asked for there at once, so the shards missing are loaded in one round
 * (src/store/shard-store.ts re-runs a read after each round) rather than one per item.
 */
export function paginate<T, U = T>(all: readonly T[], query: PageQuery, map?: (t: T) => U, first?: (page: readonly T[]) => void): ListBody<U> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalid(`limit: must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const offset = query.page === undefined ? 0 : decodeCursor(query.page);
  const slice = all.slice(offset, offset + limit);
  first?.(slice);
  const items = map ? slice.map(map) : (slice as unknown as U[]);
  const body: ListBody<U> = { items, count: all.length };
  if (offset + limit < all.length) body.next = { page: encodeCursor(offset + limit) };
  return body;
}
