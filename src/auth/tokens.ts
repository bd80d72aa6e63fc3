import { createHash } from 'node:crypto';
import type { Caller, CallerScope, Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { table } from '../store/port.js';
import { Users } from '../users/tables.js';

/** The API tokens table (root shard), found by user. */
export const Tokens = table<TokenRecord, 'user'>('tokens');

/** A token row: its id is the SHA-256 of the secret, so the secret itself is never stored. */
export interface TokenRecord {
  id: string;
  user: string;
  label: string;
  createdAt: string;
  /** After this instant the token is refused (401). */
  expiresAt?: string;
  /** When it last authenticated a request, to the minute (see TOUCH_EVERY_MS). */
  lastUsedAt?: string;
  /** A scoped token (src/auth/scope.ts): the caller it makes carries this scope. */
  scope?: CallerScope;
}

/**
 * The id people see and revoke by (docs tokens list/revoke): a prefix of the stored hash, so
 * every row has one without a migration. It tells nothing of the secret (a 238-bit random value).
 */
export const publicTokenId = (hash: string) => `tok_${hash.slice(0, 16)}`;

/** lastUsedAt is written at most this often per token, so reads do not become writes. */
export const TOUCH_EVERY_MS = 60_000;

// Tokens are 238-bit random secrets, so a fast hash is enough: there is nothing to brute-force.
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

// Clients send the same few tokens on every request: remember recent hashes (bounded) rather
// than hashing each time. Only what the process already holds per request is kept.
const recent = new Map<string, string>();
export function cachedHash(token: string): string {
  let h = recent.get(token);
  if (h === undefined) {
    if (recent.size >= 1000) recent.clear();
    recent.set(token, (h = hashToken(token)));
  }
  return h;
}

export function insertToken(tx: WriteTx, token: string, user: string, label: string, now: Date, expiresAt?: string, scope?: CallerScope): TokenRecord {
  return tx.put(Tokens, { id: hashToken(token), user, label, createdAt: now.toISOString(), ...(expiresAt ? { expiresAt } : {}), ...(scope ? { scope } : {}) });
}

// Per process: when each token's lastUsedAt was last written, so concurrent requests of the same
// minute do not each queue a write before the first one commits.
const touched = new Map<string, number>();
// The lastUsedAt writes started and not yet committed (tokenUsesWritten waits for them).
const writing = new Set<Promise<void>>();

/** How long a recorded use waits for its write, with the uses recorded meanwhile (one commit for all). */
export const tokenUseWrite = { delayMs: 1000 };

/** The uses of one store waiting for their write (`touch`). */
interface UseBatch {
  uses: Map<string, Date>;
  timer?: NodeJS.Timeout;
  /** Starts the write now (the timer's end, or tokenUsesWritten). */
  start: () => void;
}
const batches = new Map<object, UseBatch>();

/**
 * Records a token's use, off the request's path and after it: the request does not wait for
 * this durable commit (an fsync: the first request of each token each minute paid it, 60–150 ms
 * on a loaded machine for the first request after `docs serve` starts, issue 28 item 1). In
 * `docs serve` (`ctx.deferTokenUses`) the commit waits `tokenUseWrite.delayMs`, with the uses
 * recorded meanwhile: started at once, the process's first commit (the journal opened, its
 * folder synced) and the store generation it moves (kept answers, known tokens) landed on the
 * requests right after a fresh server's first. It is a record for `docs tokens list`, not a write
 * the client asked for; `tokens list` and the server's close write it at once (tokenUsesWritten).
 */
function touch(ctx: Context, hash: string, now: Date): void {
  const last = touched.get(hash);
  if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
  if (touched.size >= 10_000) touched.clear();
  touched.set(hash, now.getTime());
  let batch = batches.get(ctx.store);
  if (!batch) {
    const uses = new Map<string, Date>();
    let start!: () => void;
    const go = new Promise<void>((resolve) => (start = resolve));
    const written: Promise<void> = go
      .then(() => {
        if (batches.get(ctx.store) === batch) batches.delete(ctx.store);
        return ctx.store.write((tx) => {
          for (const [hash, at] of uses) {
            const row = tx.get(Tokens, hash);
            if (row && !(row.lastUsedAt && at.getTime() - Date.parse(row.lastUsedAt) < TOUCH_EVERY_MS))
              tx.put(Tokens, { ...row, lastUsedAt: at.toISOString() });
          }
        });
      })
      .then(
        () => {},
        () => {}, // a record of use that cannot be written (a full disk) must not refuse a valid token
      )
      .finally(() => writing.delete(written));
    writing.add(written);
    batch = { uses, start, timer: ctx.deferTokenUses ? setTimeout(start, tokenUseWrite.delayMs) : undefined };
    // Background work keeps no process alive (a server's close writes it: tokenUsesWritten).
    batch.timer?.unref();
    batches.set(ctx.store, batch);
    if (!ctx.deferTokenUses) start();
  }
  batch.uses.set(hash, now);
}

/** Writes the uses recorded so far now, and resolves once they are committed (or failed): what `tokens list` shows includes them. */
export async function tokenUsesWritten(): Promise<void> {
  for (const b of batches.values()) {
    clearTimeout(b.timer);
    b.start();
  }
  while (writing.size) await Promise.all([...writing]);
}

// What the store said of a token, at the store generation it was read at (Store.generation():
// it moves on every commit, this process's or one heard from another). Revoking a token, deleting
// its user, changing its row are commits: the next request reads them again. Expiry is checked on
// every request (the clock moves without a commit), and a token's use is recorded as before.
// Bounded like the hashes above; per store (a process may open several: tests, in-process commands).
interface Known {
  generation: number;
  /** The token's row, when it and its user exist (else the token is refused). */
  row: TokenRecord | undefined;
  /** The row's lastUsedAt and expiresAt, parsed once (ms; -Infinity / Infinity when unset). */
  usedAt: number;
  expiresAt: number;
}
const known = new WeakMap<object, Map<string, Known>>();

function knownOf(ctx: Context, hash: string, generation: number | undefined): Known | undefined {
  const hit = generation === undefined ? undefined : known.get(ctx.store)?.get(hash);
  return hit?.generation === generation ? hit : undefined;
}

function remember(ctx: Context, hash: string, generation: number | undefined, row: TokenRecord | undefined): Known {
  const k: Known = {
    generation: generation ?? -1,
    row,
    usedAt: row?.lastUsedAt ? Date.parse(row.lastUsedAt) : -Infinity,
    expiresAt: row?.expiresAt ? Date.parse(row.expiresAt) : Infinity,
  };
  // Kept only when no commit came between the generation read and the row read (then the row is of that generation).
  if (generation === undefined || ctx.store.generation?.() !== generation) return k;
  let m = known.get(ctx.store);
  if (!m) known.set(ctx.store, (m = new Map()));
  if (m.size >= 10_000) m.clear();
  m.set(hash, k);
  return k;
}

/** The caller behind a bearer token; 401 when it is missing or matches no live user. */
export async function authenticate(ctx: Context, token: string | undefined): Promise<Caller> {
  if (!token) throw new DocsError('unauthenticated', 'authentication required: send Authorization: Bearer <token>');
  const hash = cachedHash(token);
  const generation = ctx.store.generation?.();
  const session = ctx.sessionTokens.get(hash);
  const k =
    knownOf(ctx, knownKey(hash, session), generation) ??
    remember(
      ctx,
      knownKey(hash, session),
      generation,
      session
        ? // The session's user's row (its presence only).
          (await ctx.store.read((tx) => tx.get(Users, session)))
          ? SESSION_ROW
          : undefined
        : await ctx.store.read((tx: ReadTx) => {
            const t = tx.get(Tokens, hash);
            return t && tx.get(Users, t.user) ? t : undefined;
          }),
    );
  return callerOf(ctx, hash, session, k);
}

/** A session token's entry is apart from a token row's: the set of session tokens is the process's, not the store's. */
const knownKey = (hash: string, session: string | undefined) => (session ? `session:${hash}` : hash);

/** The caller of a token whose rows are `k`, checked now: refused when revoked, its user gone, or expired. */
function callerOf(ctx: Context, hash: string, session: string | undefined, k: Known): Caller {
  const row = k.row;
  // A revoked token has no row: refused at once, as an unknown one.
  if (!row) throw new DocsError('unauthenticated', 'invalid token');
  // Only an in-process CLI command of this machine holds a session token (the owner-only lock file).
  if (session) return { userId: session, inProcess: true };
  const now = ctx.clock.now().getTime();
  if (k.expiresAt <= now) throw new DocsError('unauthenticated', `token expired at ${row.expiresAt}`);
  if (!(now - k.usedAt < TOUCH_EVERY_MS)) touch(ctx, hash, new Date(now));
  // A scoped token's caller carries its scope: src/invoke.ts holds it to it (docs/manual/integrations.md#scoped-callers).
  return row.scope ? { userId: row.user, scope: row.scope } : { userId: row.user };
}

/** What `known` keeps for a session token whose user exists (the session has no token row). */
const SESSION_ROW: TokenRecord = { id: '', user: '', label: 'session', createdAt: '' };

/** The bearer token of an Authorization header value, if any. */
export function bearer(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1] : undefined;
}
