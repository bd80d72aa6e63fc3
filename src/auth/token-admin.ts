import type { Caller, Context } from '../kernel/context.js';
import { DocsError, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newToken } from '../kernel/ids.js';
import type { ReadTx } from '../store/port.js';
import { findUser, isInstanceOwner, requireInstanceOwner } from '../users/instance.js';
import type { UserRecord } from '../users/model.js';
import { insertToken, publicTokenId, type TokenRecord, Tokens, tokenUsesWritten } from './tokens.js';
import { Users } from '../users/tables.js';

// API tokens of the local store (docs tokens create|list|revoke). Not contract operations: the
// server exposes them at /_docs/tokens (server/tokens.ts), in-process commands call tokenRoute.
// Anyone manages their own tokens; an instance owner manages everyone's (src/users/instance.ts).
// An organization admin does not: a token acts in every organization of its user, so the power to
// mint one would let whoever invited a user act as them everywhere.

/** A token as shown: never the secret, nor the hash it is stored under. */
export interface TokenView {
  object: 'token';
  id: string;
  label: string;
  user: { id: string; email: string; displayName: string };
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

const present = (t: TokenRecord, u: UserRecord | undefined): TokenView => ({
  object: 'token',
  id: publicTokenId(t.id),
  label: t.label,
  user: { id: t.user, email: u?.email ?? '', displayName: u?.displayName ?? '' },
  createdAt: t.createdAt,
  lastUsedAt: t.lastUsedAt ?? null,
  expiresAt: t.expiresAt ?? null,
});

/** Whether `caller` may manage `target`'s tokens: themself, or an instance owner. */
function requireManager(tx: ReadTx, caller: Caller, target: UserRecord, action: string): void {
  if (caller.userId === target.id || isInstanceOwner(tx, caller.userId)) return;
  throw refused(action, target.email);
}

const refused = (action: string, who: string) =>
  forbidden(`${action} for ${who} is refused: only that user or an instance owner manages a user's tokens (an organization admin does not)`);

/**
 * The user whose tokens are asked for. Checked before the lookup, so that a caller who may not
 * manage others learns nothing of which addresses have an account (403 for all of them alike).
 */
function targetUser(tx: ReadTx, caller: Caller, ref: string, action: string): UserRecord {
  if (!isInstanceOwner(tx, caller.userId)) {
    const me = tx.get(Users, caller.userId);
    if (!me || (ref !== me.id && ref.trim().toLowerCase() !== me.email.toLowerCase())) throw refused(action, ref);
    return me;
  }
  return findUser(tx, ref);
}

const MAX_LABEL = 100;

export async function createToken(ctx: Context, caller: Caller, body: unknown): Promise<TokenView & { token: string }> {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body: must be a JSON object {user, label?, expiresAt?}');
  for (const k of Object.keys(b)) if (!['user', 'label', 'expiresAt'].includes(k)) throw invalid(`${k}: unknown field (allowed: user, label, expiresAt)`);
  if (typeof b.user !== 'string' || !b.user) throw invalid('user: required, a user id or email address');
  const label = b.label === undefined ? 'cli' : b.label;
  if (typeof label !== 'string' || !label.trim() || label.length > MAX_LABEL)
    throw invalid(`label: must be a non-empty string of at most ${MAX_LABEL} characters`);
  let expiresAt: string | undefined;
  if (b.expiresAt !== undefined && b.expiresAt !== null) {
    const t = typeof b.expiresAt === 'string' ? Date.parse(b.expiresAt) : NaN;
    if (Number.isNaN(t)) throw invalid('expiresAt: must be a date-time (ISO 8601)');
    if (t <= ctx.clock.now().getTime()) throw invalid(`expiresAt: ${b.expiresAt} is in the past`);
    expiresAt = new Date(t).toISOString();
  }
  const token = newToken();
  return ctx.store.write((tx) => {
    const user = targetUser(tx, caller, b.user as string, 'creating a token');
    const row = insertToken(tx, token, user.id, label.trim(), ctx.clock.now(), expiresAt);
    return { ...present(row, user), token };
  });
}

export async function listTokens(ctx: Context, caller: Caller, userRef: string | undefined): Promise<{ items: TokenView[]; count: number }> {
  await tokenUsesWritten(); // the uses requests just made, recorded off their path (src/auth/tokens.ts)
  return ctx.store.read((tx) => {
    const user = targetUser(tx, caller, userRef ?? caller.userId, 'listing tokens');
    const items = tx
      .find(Tokens, 'user', user.id)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((t) => present(t, user));
    return { items, count: items.length };
  });
}

/** Deletes the row: the next request with that token is a 401 (authenticate finds nothing). */
export async function revokeToken(ctx: Context, caller: Caller, id: string): Promise<TokenView> {
  if (!/^tok_[0-9a-f]{16}$/.test(id)) throw notFound(`token ${id} not found (ids look like tok_0123456789abcdef; see docs tokens list)`);
  return ctx.store.write((tx) => {
    const row = tx.all(Tokens).find((t) => publicTokenId(t.id) === id);
    if (!row) throw notFound(`token ${id} not found (see docs tokens list): nothing revoked`);
    const user = tx.get(Users, row.user);
    if (user) requireManager(tx, caller, user, 'revoking a token');
    else requireInstanceOwner(tx, caller, `revoking token ${id} (of a deleted user)`);
    tx.delete(Tokens, row.id);
    return present(row, user);
  });
}

export interface RouteAnswer {
  status: number;
  body: unknown;
}

/**
 * /_docs/tokens[/{id}] for a caller: POST creates, GET lists (?user=), DELETE /{id} revokes.
 * The server and the in-process transport both answer through here.
 */
export async function tokenRoute(
  ctx: Context,
  caller: Caller,
  method: string,
  path: string,
  query: Record<string, unknown>,
  body: unknown,
): Promise<RouteAnswer> {
  const m = /^\/_docs\/tokens(?:\/([^/]+))?\/?$/.exec(path);
  if (!m) throw notFound(`no route for ${method} ${path}`);
  const id = m[1] && decodeURIComponent(m[1]);
  const allow = id ? ['DELETE'] : ['GET', 'POST'];
  if (!allow.includes(method))
    throw Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on ${path} (allowed: ${allow.join(', ')})`), { allow });
  if (method === 'POST') return { status: 201, body: await createToken(ctx, caller, body) };
  if (method === 'GET') {
    const user = query.user;
    if (user !== undefined && typeof user !== 'string') throw invalid('user: give one user id or email address');
    return { status: 200, body: await listTokens(ctx, caller, user || undefined) };
  }
  return { status: 200, body: await revokeToken(ctx, caller, id!) };
}
