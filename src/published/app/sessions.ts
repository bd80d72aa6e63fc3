import { contextBase } from '../../kernel/context.js';
import { randomBytes } from 'node:crypto';
import { authenticate, hashToken } from '../../auth/tokens.js';
import type { Caller, Context } from '../../kernel/context.js';
import { DocsError } from '../../kernel/errors.js';

// Sessions of the app's views (`/o`). Signing in with an API token makes a new random session
// id, the only thing the browser keeps (cookie `docs_session`); the token stays in this process.
// Each sign-in makes a new id and ends the session the browser came with, so a cookie planted
// before sign-in (session fixation) or kept from an earlier one is worth nothing after it. A
// session is checked against its token at each request: a revoked or expired token ends it.
// Sessions live in the memory of the server process (bounded, 12 hours at most): a restart, or
// another server of a PostgreSQL store, asks to sign in again.

export const SESSION_TTL_MS = 12 * 3600_000;
const MAX_SESSIONS = 10_000;

interface Session {
  token: string;
  expiresAt: number;
}

const byContext = new WeakMap<Context, Map<string, Session>>();
const sessionsOf = (ctx: Context) => {
  let m = byContext.get(contextBase(ctx));
  if (!m) byContext.set(contextBase(ctx), (m = new Map()));
  return m;
};

/** A new session for `token` (already checked), ending `previous` (the id the browser came with). */
export function startSession(ctx: Context, token: string, previous?: string): string {
  const sessions = sessionsOf(ctx);
  if (previous) sessions.delete(hashToken(previous));
  if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
  const id = randomBytes(32).toString('base64url');
  sessions.set(hashToken(id), { token, expiresAt: ctx.clock.now().getTime() + SESSION_TTL_MS });
  return id;
}

export function endSession(ctx: Context, id: string | undefined): void {
  if (id) sessionsOf(ctx).delete(hashToken(id));
}

/** The caller of a live session; 401 for an unknown, ended or expired one, or when its token no longer authenticates. */
export async function sessionCaller(ctx: Context, id: string | undefined): Promise<Caller> {
  if (!id) throw new DocsError('unauthenticated', 'sign in first');
  const key = hashToken(id);
  const s = sessionsOf(ctx).get(key);
  if (!s || s.expiresAt <= ctx.clock.now().getTime()) {
    sessionsOf(ctx).delete(key);
    throw new DocsError('unauthenticated', 'session ended: sign in again');
  }
  try {
    return await authenticate(ctx, s.token);
  } catch (err) {
    sessionsOf(ctx).delete(key);
    throw err;
  }
}
