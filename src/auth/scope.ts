import type { CallerScope, Context } from '../kernel/context.js';
import { forbidden } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { WriteTx } from '../store/port.js';
import { insertToken, Tokens } from './tokens.js';

// Scoped tokens (docs/manual/integrations.md#scoped-callers). A scoped token is an API token of
// the tokens table (stored by its SHA-256, like every token) whose row carries a CallerScope:
// the caller it authenticates is its user *and* that scope. It is short-lived (SCOPED_TTL_MS),
// and revoked by deleting its row: uninstalling an integration deletes its installation's tokens
// (revokeInstallationTokens), and `docs tokens revoke` works on them like on any token.

/** How long a scoped token lives: GitBook's installation tokens last an hour too. */
export const SCOPED_TTL_MS = 60 * 60 * 1000;

/** Scoped secrets say what they are: `gb_inst_` (an installation's), `gb_pub_` (a published URL's), `gb_ntf_` (a user's notifications token). */
const PREFIX: Record<CallerScope['kind'], string> = { installation: 'gb_inst_', published: 'gb_pub_', notifications: 'gb_ntf_' };

/**
 * Mints a scoped token acting as `user` within `scope`; returns the secret (never stored).
 * Expired scoped tokens of the same user are removed on the way, so they do not pile up.
 */
export function mintScopedToken(tx: WriteTx, ctx: Context, user: string, scope: CallerScope, label: string): { token: string; expiresAt: string } {
  const now = ctx.clock.now();
  for (const t of tx.find(Tokens, 'user', user)) {
    if (t.scope && t.expiresAt && Date.parse(t.expiresAt) <= now.getTime()) tx.delete(Tokens, t.id);
  }
  const token = PREFIX[scope.kind] + newId(40);
  const expiresAt = new Date(now.getTime() + SCOPED_TTL_MS).toISOString();
  insertToken(tx, token, user, label, now, expiresAt, scope);
  return { token, expiresAt };
}

/** A user's published-content tokens kept at most: minting one more removes the oldest beyond this. */
export const PUBLISHED_TOKENS_MAX = 20;

/**
 * The `apiToken` of a published URL's lookup (getPublishedContentByUrl): the caller's own rights,
 * narrowed to reading the one space and site the URL shows (never more than the caller may do).
 * At most PUBLISHED_TOKENS_MAX live per user, so lookups in a loop do not pile up rows.
 */
export function mintPublishedToken(tx: WriteTx, ctx: Context, user: string, target: { organization: string; site: string; space: string }) {
  const mine = tx
    .find(Tokens, 'user', user)
    .filter((t) => t.scope?.kind === 'published')
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  while (mine.length >= PUBLISHED_TOKENS_MAX) tx.delete(Tokens, mine.shift()!.id);
  const scope: CallerScope = {
    kind: 'published',
    organization: target.organization,
    scopes: ['space:metadata:read', 'space:content:read', 'site:metadata:read'],
    spaces: [target.space],
    sites: [target.site],
  };
  return mintScopedToken(tx, ctx, user, scope, `published content of site ${target.site}, space ${target.space}`);
}

/** Deletes every token of an installation (uninstalling it): they are refused (401) from then on. */
export function revokeInstallationTokens(tx: WriteTx, user: string, installationId: string): number {
  let n = 0;
  for (const t of tx.find(Tokens, 'user', user)) {
    if (t.scope?.installation?.id === installationId) {
      tx.delete(Tokens, t.id);
      n++;
    }
  }
  return n;
}

/**
 * For the doors that do not go through invoke (the /_docs routes, the app's sign-in): a scoped
 * token opens none of them, since none of them knows how to hold it to its scope.
 */
export function refuseScoped(caller: { scope?: CallerScope }, where: string): void {
  if (caller.scope) throw forbidden(`a scoped token (${caller.scope.kind}) may not be used for ${where}: only the API's operations within its scope`);
}
