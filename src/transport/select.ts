import { bootstrap, ownerOf } from '../auth/bootstrap.js';
import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { openContext } from '../open.js';
import { closeSearchIndexes } from '../search/service.js';
import { liveHolderProbed, tryLockProbed } from '../store/lock.js';
import { HttpTransport } from './http.js';
import { LocalTransport } from './local.js';
import { currentProfile, defaultDataDir } from './profiles.js';
import type { Transport } from './types.js';

export interface TransportOptions {
  apiUrl?: string;
  token?: string;
  data?: string;
  profile?: string;
  /** A PostgreSQL store (postgres://...), opened in-process beside any running servers. */
  store?: string;
  /** Told once when an in-process call initializes a new data directory. */
  notice?: (message: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Chooses where a command goes. In order: --api-url / DOCS_API_URL; else --data / DOCS_DATA
 * (in-process); else a saved profile (`docs auth login`); else the default data directory
 * in-process. In-process calls on a directory held by `docs serve` go to that server over HTTP,
 * so two processes never write the same files.
 */
export async function selectTransport(o: TransportOptions): Promise<Transport> {
  const env = process.env;
  const token = o.token ?? env.DOCS_TOKEN ?? undefined;
  const apiUrl = o.apiUrl ?? env.DOCS_API_URL;
  if (apiUrl) return new HttpTransport(apiUrl, token ?? (o.profile ? currentProfile(o.profile)?.token : undefined), { notice: o.notice });
  const data = o.data ?? env.DOCS_DATA;
  const store = o.store ?? env.DOCS_STORE;
  if (store) return openShared(store, data ?? defaultDataDir(), token, o.notice);
  if (!data) {
    const profile = currentProfile(o.profile);
    if (profile) return new HttpTransport(profile.apiUrl, token ?? profile.token, { notice: o.notice });
    if (o.profile) throw new DocsError('not_found', `profile ${o.profile} not found (docs auth login --profile ${o.profile} ...)`);
  }
  return openLocal(data ?? defaultDataDir(), token, o.notice);
}

/** Where selectTransport sends a command, and where the token comes from, in words (docs auth status). */
export interface Selection {
  /** What chose the destination: "--api-url", "DOCS_API_URL", "--data", "DOCS_DATA", "--store", "DOCS_STORE", "profile NAME" or "default data directory". */
  via: string;
  /** The saved login in use, if any. */
  profile?: string;
  /** "--token", "DOCS_TOKEN", "profile NAME", or "none (in-process as the store's owner)" / "none". */
  tokenFrom: string;
}

/** The same order as selectTransport, told instead of done. */
export function describeSelection(o: TransportOptions): Selection {
  const env = process.env;
  const tokenGiven = o.token !== undefined ? '--token' : env.DOCS_TOKEN !== undefined ? 'DOCS_TOKEN' : undefined;
  const apiUrlFrom = o.apiUrl !== undefined ? '--api-url' : env.DOCS_API_URL ? 'DOCS_API_URL' : undefined;
  if (apiUrlFrom) {
    const profile = !tokenGiven && o.profile && currentProfile(o.profile)?.token ? o.profile : undefined;
    return { via: apiUrlFrom, ...(profile ? { profile } : {}), tokenFrom: tokenGiven ?? (profile ? `profile ${profile}` : 'none') };
  }
  const inProcess = (via: string): Selection => ({ via, tokenFrom: tokenGiven ?? "none (in-process: acting as the store's owner)" });
  if (o.store !== undefined || env.DOCS_STORE) return inProcess(o.store !== undefined ? '--store' : 'DOCS_STORE');
  if (o.data !== undefined || env.DOCS_DATA) return inProcess(o.data !== undefined ? '--data' : 'DOCS_DATA');
  const profile = currentProfile(o.profile);
  if (profile) {
    const name = o.profile ?? profile.name;
    return { via: `profile ${name}`, profile: name, tokenFrom: tokenGiven ?? `profile ${name}` };
  }
  return inProcess('default data directory');
}

/** In-process on a PostgreSQL store: servers and commands share it, so there is no lock to take. */
async function openShared(store: string, blobs: string, token: string | undefined, notice?: (m: string) => void): Promise<Transport> {
  const ctx = await openContext(blobs, { store });
  try {
    const boot = await bootstrap(ctx);
    if (boot) notice?.(`Initialized the store. Owner token (shown once): ${boot.token}`);
    const owner = await ownerOf(ctx);
    return await LocalTransport.as(ctx, token, owner ? { userId: owner } : undefined, 'PostgreSQL store', () => ctx.store.close());
  } catch (err) {
    await ctx.store.close();
    throw err;
  }
}

/** After this long waiting for another in-process command, say so (else a wait looks like a hang). */
export const WAIT_NOTICE_MS = 500;

async function openLocal(dir: string, token: string | undefined, notice?: (m: string) => void): Promise<Transport> {
  const started = Date.now();
  const deadline = started + 10_000;
  let told = false;
  for (;;) {
    const server = await liveHolderProbed(dir);
    if (server?.url) return new HttpTransport(server.url, token ?? server.token, { notice });
    const got = await tryLockProbed(dir);
    if (got.ok) {
      let opened: Context | undefined;
      try {
        // The lock makes this process the directory's only user, for one caller: sync reads; a
        // crash's temp files left to `docs serve` and `docs doctor` (FileBackendOptions.keepStrayTemps).
        const ctx = await openContext(dir, { syncReads: true, keepStrayTemps: true });
        opened = ctx;
        const boot = await bootstrap(ctx);
        if (boot) notice?.(`Initialized data directory ${dir}. Owner token (shown once): ${boot.token}`);
        const owner = await ownerOf(ctx);
        return await LocalTransport.as(ctx, token, owner ? { userId: owner } : undefined, `local data directory ${dir}`, async () => {
          // With the store, the index files a search of this command opened (the search thread's
          // SQLite connections; derived data: a failure to close them is no failure of the command).
          await closeSearchIndexes(ctx).catch(() => {});
          await ctx.store.close();
          got.release();
        });
      } catch (err) {
        // Refused after the store opened (a token that authenticates no one): the caller gets no
        // transport to close, so the store is closed here.
        await opened?.store.close().catch(() => {});
        got.release();
        throw err;
      }
    }
    // Another in-process command holds it for the length of one command: wait our turn.
    if (got.holder.url) continue;
    if (Date.now() > deadline) throw new DocsError('unavailable', `data directory ${dir} is busy (held by pid ${got.holder.pid})`);
    if (!told && Date.now() - started >= WAIT_NOTICE_MS) {
      told = true;
      notice?.(`waiting for pid ${got.holder.pid} (another docs command) to release the data directory ${dir} ...`);
    }
    await sleep(20);
  }
}
