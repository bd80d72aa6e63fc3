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
}

/** The authenticated user behind a request. */
export interface Caller {
  userId: string;
  /**
   * The call comes from the in-process CLI on this machine (src/transport/local.ts), or is
   * forwarded by it to the server holding its data directory with the server's session token.
   */
  inProcess?: boolean;
}

export const apiUrl = (ctx: Context, path: string) => `${ctx.baseUrl}/v1${path}`;
