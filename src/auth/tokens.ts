import { createHash } from 'node:crypto';
import type { Caller, Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { UserRecord } from '../users/model.js';

/** A token row: its id is the SHA-256 of the secret, so the secret itself is never stored. */
export interface TokenRecord {
  id: string;
  user: string;
  label: string;
  createdAt: string;
}

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

export function insertToken(tx: WriteTx, token: string, user: string, label: string, now: Date): void {
  tx.put<TokenRecord>('tokens', { id: hashToken(token), user, label, createdAt: now.toISOString() });
}

/** The caller behind a bearer token; 401 when it is missing or matches no live user. */
export async function authenticate(ctx: Context, token: string | undefined): Promise<Caller> {
  if (!token) throw new DocsError('unauthenticated', 'authentication required: send Authorization: Bearer <token>');
  const hash = cachedHash(token);
  const session = ctx.sessionTokens.get(hash);
  const userId = session ?? (await ctx.store.read((tx: ReadTx) => tx.get<TokenRecord>('tokens', hash)?.user));
  if (!userId || !(await ctx.store.read((tx) => tx.get<UserRecord>('users', userId)))) {
    throw new DocsError('unauthenticated', 'invalid token');
  }
  return { userId };
}

/** The bearer token of an Authorization header value, if any. */
export function bearer(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m ? m[1] : undefined;
}
