import type { Store } from '../store/port.js';
import type { Clock } from './clock.js';

/** What every handler runs with. Built once per process by the edge (server or CLI). */
export interface Context {
  store: Store;
  clock: Clock;
  /** Base URL of the server the API is reached at (without /v1), for `urls` and `Location`. */
  baseUrl: string;
  /** Tokens that live only as long as this process (the serve session token), by hash. */
  sessionTokens: Map<string, string>;
  /** The data directory, for large files kept beside the store's JSON; undefined in memory. */
  dataDir?: string;
  /**
   * `docs serve --allow-private-tunnels`: integration development tunnels of anyone may reach
   * loopback and private addresses (src/integrations/service.ts). Off by default.
   */
  allowPrivateTunnels?: boolean;
  /**
   * `docs serve`: a token's use (lastUsedAt) is written `tokenUseWrite.delayMs` after the request,
   * with the uses recorded meanwhile (src/auth/tokens.ts), and the server's close writes what waits.
   * Elsewhere (an in-process command, which exits once its output is written) it is written at once.
   */
  deferTokenUses?: boolean;
  /**
   * The process's context this one is made from: `invoke` gives a write operation's handler its
   * own context (its store records the call's audit events, src/kernel/write-scope.ts). What a
   * process keeps per context (workers, indexes, caches) is kept by `contextBase(ctx)`.
   */
  base?: Context;
}

/** The process's context behind `ctx` (itself, unless `invoke` made `ctx` for one call). */
export const contextBase = (ctx: Context): Context => ctx.base ?? ctx;

/** The authenticated user behind a request. */
export interface Caller {
  userId: string;
  /**
   * The call comes from the in-process CLI on this machine (src/transport/local.ts), or is
   * forwarded by it to the server holding its data directory with the server's session token.
   */
  inProcess?: boolean;
  /**
   * Set for a scoped token (an integration installation's, a published URL's): the call may do
   * no more than both the user's rights and this scope allow (src/auth/scope.ts, checked in
   * src/invoke.ts). Absent for every ordinary caller.
   */
  scope?: CallerScope;
}

/**
 * What a scoped token may reach (docs/manual/integrations.md#scoped-callers). The targets are
 * where it may act: an installation's spaces and sites are looked up at each call (installing
 * on one more space widens it, uninstalling ends it); a published URL's token names its space.
 */
export interface CallerScope {
  kind: 'installation' | 'published' | 'notifications';
  /** The one organization it may act in (kind `notifications`: none, it acts on its user only). */
  organization?: string;
  /** The integration scopes it holds (`space:content:read`, ...): the installed integration's. */
  scopes: string[];
  /** kind `installation`: which one (its integration by id and name). */
  installation?: { id: string; integration: string; integrationName: string };
  /** kind `published`: the spaces and sites it may read, fixed when it was made. */
  spaces?: string[];
  sites?: string[];
}

export const apiUrl = (ctx: Context, path: string) => `${ctx.baseUrl}/v1${path}`;
