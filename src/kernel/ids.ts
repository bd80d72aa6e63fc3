import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function freshId(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps the distribution uniform over the 62 symbols.
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? out : out + freshId(length - out.length);
}

// The store runs a transaction's function again once the shards it reached are loaded
// (src/store/shard-store.ts). A function that made an id and then looked up rows by it (a new
// spec's source, say) would reach another new shard on every run; so within one transaction the
// ids come back the same, run after run, in the order they are asked for.
let replay: { ids: string[]; next: number } | undefined;

/** Runs `fn` with the ids `ids` handed out again in order (new ones appended). */
export function withReplayedIds<R>(ids: string[], fn: () => R): R {
  const outer = replay;
  replay = { ids, next: 0 };
  try {
    return fn();
  } finally {
    replay = outer;
  }
}

/** Random, URL-safe, fixed-length id (20 chars of base62 ≈ 119 bits). Never sequential. */
export function newId(length = 20): string {
  if (!replay) return freshId(length);
  const r = replay;
  const again = r.ids[r.next];
  if (again !== undefined && again.length === length) return r.ids[r.next++]!;
  // The run went another way than the last one: the ids after this point are new.
  r.ids.length = r.next;
  const id = freshId(length);
  r.ids.push(id);
  r.next++;
  return id;
}

/** A secret token: prefix + 40 base62 chars. Only its hash is stored. */
export function newToken(): string {
  return 'gb_api_' + newId(40);
}
