import { Agent, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ShardData } from '../src/store/backend.js';
import { FileBackend } from '../src/store/file-backend.js';
import { MemoryBackend } from '../src/store/memory-backend.js';
import { SHARDS } from '../src/store/shard-files.js';
import { ShardStore } from '../src/store/shard-store.js';
import { TABLES } from '../src/store/tables.js';
import { authenticate } from '../src/auth/tokens.js';
import type { Context } from '../src/kernel/context.js';
import type { NamedWriteTx, RowChanges, Store } from '../src/store/port.js';
import { DocsError } from '../src/kernel/errors.js';
import { invoke } from '../src/invoke.js';
import { loadBodyValidatorRuntime } from '../src/contract/validate.js';
import { warmSearchCode, warmUpSearchWord } from '../src/search/service.js';

// The first request a `docs serve` process answers ran, for the first time in the process, Node's
// HTTP server (parser, socket, response writing), our handler, authentication, the router and
// `invoke`: 14–20 ms of main-thread CPU against ~1 ms warm (docs/manual/performance.md, "First
// requests"), paid by whoever asked first; the first request of each area ran its code (store
// tables, services, presenters, validators) for the first time as well. Before it says it is
// ready, the server asks itself twice on one kept-alive connection over loopback as its owner (the
// session token), then runs one read of each area in process as the same caller, and one write
// rolled back, whose rows are then committed to a scratch store (in memory, and files in the temp
// folder): none is logged, counted against the server's rate limits or kept (server/answers.ts),
// and nothing is committed to the server's store.

const HEADER = 'x-docs-warm-up';

/**
 * The warm-up's reads, in order, after its HTTP request: one of each area the owner's first
 * organization and its first space have (`org` and `space` are the first item of the list that
 * `names` them; a read that needs one the store has not is skipped). In process (`invoke`, as the
 * HTTP request's caller): the HTTP server, authentication and the router are what the HTTP
 * request ran already, and each read through them cost twice the CPU. Only reads of rows, bounded
 * at any store size: one item of each list, no page bodies (a space's content is the space's shard
 * read from disk: data, not code, see the manual). The space's search comes after the write, and
 * only when the search thread is idle (`WARM_UP_SEARCH`).
 */
export const WARM_UP_READS: readonly { op: string; path?: Record<string, 'org' | 'space'>; names?: 'org' | 'space' }[] = [
  { op: 'listOrganizationsForAuthenticatedUser', names: 'org' },
  { op: 'getOrganizationById', path: { organizationId: 'org' } },
  { op: 'listSpacesInOrganizationById', path: { organizationId: 'org' }, names: 'space' },
  { op: 'listMembersInOrganizationById', path: { organizationId: 'org' } },
  { op: 'listSites', path: { organizationId: 'org' } },
  { op: 'listCollectionsInOrganizationById', path: { organizationId: 'org' } },
  { op: 'listOpenAPISpecs', path: { organizationId: 'org' } },
  { op: 'getSpaceById', path: { spaceId: 'space' } },
  { op: 'listChangeRequestsForSpace', path: { spaceId: 'space' } },
  { op: 'listCommentsInSpace', path: { spaceId: 'space' } },
];

/**
 * The warm-up's write, after its reads: a space's title set to the one it has, as its owner, on
 * the store through `rollingBack` (nothing committed). A fresh server's first write ran, for the
 * first time, the write's body validator (its module and code cache), the audit scope, the
 * store's write queue and transaction, the service and the presenter: ~2 ms of the ~6 ms of CPU
 * its first `PATCH` cost over a warm one (docs/manual/performance.md, "First requests"). The
 * commit's code runs on a scratch store (`commitToScratch`); the server's store is not written.
 */
export const WARM_UP_WRITE = 'updateSpaceById';

/**
 * The warm-up's search, last: the first space searched for a word of its own index, one result, as
 * its owner (`invoke`). A fresh server's first search ran its main-thread paths for the first time
 * (the operation's validators, the indexed revisions asked of the thread, the ranked pages' text,
 * the hits made and presented: ~1.5 ms of the ~3.2 ms of CPU it cost over a warm one;
 * docs/manual/performance.md, "First requests"); the indexer's warm-up search runs them only once
 * the first requests went quiet. Only when the search thread started early runs idle and the
 * space's index is current (src/search/service.ts `warmUpSearchWord`): nothing waits for the
 * thread's start or its early ranking, nothing is indexed, and the word, the longest of one of the
 * space's pages (as the early ranking picks one over the organization, whose rows of it in this
 * space are a part), matches few sections at any size.
 */
export const WARM_UP_SEARCH = 'searchSpaceContent';

/** The rows a write put (a row) or deleted (null), by table: what the store's transaction keeps. */
export type Changes = RowChanges;

/**
 * `store` but for its writes: each is rehearsed (`Store.rehearse`: the store's write path as any
 * write takes it, the shards its commit would rewrite loaded, nothing committed); it answers what
 * the function returned and gives `seen` the rows it would have committed. A store that cannot
 * rehearse refuses the writes.
 */
export function rollingBack(store: Store, seen?: (changes: Changes) => void): Store {
  const write: Store['write'] = (fn) => {
    if (!store.rehearse) return Promise.reject(new DocsError('unavailable', 'this store cannot rehearse a write'));
    return store.rehearse(fn).then(({ result, changes }) => {
      if (changes.size) seen?.(changes);
      return result;
    });
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === 'write') return write;
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/**
 * A store's backend in memory whose commits, once `files` is set, are made to the files of a
 * folder as well (a FileBackend's): the warm-up's scratch store (`commitToScratch`).
 */
class MirroredToFiles extends MemoryBackend {
  files?: FileBackend;
  override async commit(changes: Map<string, ShardData | null>): Promise<Map<string, number>> {
    const versions = await super.commit(changes);
    await this.files?.commit(changes);
    return versions;
  }
}

/**
 * Commits `changes` (the warm-up write's rows) to a store of the same engine in memory, twice (a
 * commit that creates the rows, then one that replaces them, as a first `PATCH` does), each also
 * made to the files of a new folder in the system's temp folder, removed after; then closes both.
 * The process's first commit ran, on the first real write, the commit's code for the first time:
 * the engine's (the plan, the shards rewritten and their directories, the cache updated) and the
 * file backend's (the catalog's buckets, new files staged and renamed, the journal opened, its
 * folder synced, a record appended and synced) with Node's file handles: ~0.5 ms of the first
 * `PATCH`'s main-thread CPU (docs/manual/performance.md, "First requests"). Nothing of the data
 * directory is touched: its journal's opening and syncs stay for its first write. The temp folder
 * is made owner-only (mkdtemp) and its files too (the store's modes), and removed at once. Without
 * a temp folder to write, the commits are made in memory only.
 */
export async function commitToScratch(changes: Changes): Promise<void> {
  const backend = new MirroredToFiles();
  const scratch = await ShardStore.open(backend, TABLES);
  const dir = await mkdtemp(join(tmpdir(), 'docs-warm-up-')).catch(() => undefined);
  try {
    if (dir) {
      await mkdir(join(dir, SHARDS));
      // Without `open`: a new folder has no format, catalog or journal to read or complete.
      backend.files = new FileBackend(dir);
    }
    for (let i = 0; i < 2; i++)
      await scratch.write((tx) => {
        const named = tx as unknown as NamedWriteTx;
        for (const [table, rows] of changes)
          for (const [id, row] of rows) {
            if (row) named.put(table, row);
            else named.delete(table, id);
          }
      });
  } finally {
    await scratch.close();
    await backend.files?.discard().catch(() => {});
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

/** The warm-up's HTTP request, then each read it ran, with its status (0: failed; a start never fails for them). */
export interface WarmedUp {
  read: string;
  status: number;
}

export interface WarmUp {
  /** For createHandler's `isWarmUp`: this request is the warm-up (a secret of this process: nobody else can hide a request from the log). */
  isWarmUp(req: IncomingMessage): boolean;
  /** Sends the warm-up request, then runs the reads as its caller; resolves with each one's status. */
  run(ctx: Context, port: number, host: string, token: string | undefined, reads?: typeof WARM_UP_READS): Promise<WarmedUp[]>;
}

export function warmUp(): WarmUp {
  const key = randomBytes(16).toString('hex');
  // Only until the warm-up was answered: after that no request, whatever it carries, is kept out
  // of the log or of a rate limit (the handler decides both when a request arrives).
  let open = true;
  return {
    isWarmUp: (req) => open && req.headers[HEADER] === key,
    run: async (ctx, port, host, token, reads = WARM_UP_READS) => {
      // The address listened on, or loopback when it was every address.
      const to = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
      const headers = { [HEADER]: key, host: to.includes(':') ? `[${to}]:${port}` : `${to}:${port}`, ...(token ? { authorization: `Bearer ${token}` } : {}) };
      // Two requests on one kept-alive connection, as clients send theirs (fetch, the CLI's undici,
      // SDKs): Node's HTTP server runs its keep-alive paths (the idle timeout armed, the socket's
      // parser reused) for the first time on the second request of a connection. Asked on a
      // connection closed after its answer, the first client to reuse one paid it (on a bare
      // node:http server 1.01 ms of CPU against 0.38 warmed up this way: docs/manual/performance.md,
      // "First requests"). The second is a write whose body its validator refuses (a title that is
      // not a string): the body read and parsed as every write's is, and nothing run past the
      // validation (src/invoke.ts), so nothing written.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      let status: number;
      let refused = 0;
      try {
        // With a query string, as lists' and searches' requests have (their limit, their query),
        // which the operation ignores: its parsing (URLSearchParams) ran for the first time on the
        // first request that had one (~0.4 ms of CPU).
        status = await ask(to, port, 'GET', '/v1/user?warm-up=1', headers, agent);
        if (status !== 0) refused = await ask(to, port, 'PATCH', '/v1/spaces/warm-up', headers, agent, REFUSED_BODY);
      } finally {
        open = false;
        agent.destroy();
      }
      const done: WarmedUp[] = [
        { read: 'GET /v1/user', status },
        { read: 'PATCH /v1/spaces/{spaceId} (body refused)', status: refused },
      ];
      // What every write's body validator shares (src/contract/validate.ts), and what a search
      // runs on its query's words, the stemmer of its snippets loaded (src/search/service.ts):
      // code, no data.
      loadBodyValidatorRuntime();
      await warmSearchCode().catch(() => {});
      if (status !== 200 || !token) return done;
      const caller = await authenticate(ctx, token).catch(() => undefined);
      // One operation in process as the caller, its status noted (0: it failed).
      const call = async (read: string, op: string, input: Parameters<typeof invoke>[2], on: Context = ctx) => {
        const result = await Promise.resolve(invoke(on, op, input, caller)).catch(() => undefined);
        done.push({ read, status: result?.status ?? 0 });
        return result;
      };
      const ids: Partial<Record<'org' | 'space', string>> = {};
      let title: string | undefined;
      for (const r of reads) {
        const path: Record<string, string> = {};
        for (const [name, id] of Object.entries(r.path ?? {})) if (ids[id]) path[name] = ids[id];
        if (Object.keys(path).length !== Object.keys(r.path ?? {}).length) continue;
        const result = await call(r.op, r.op, { path, query: { limit: '1' }, headers: {} });
        // The first item of a list names the organization or the space of the reads after it.
        const first = result?.status === 200 ? (result.body as { items?: { id?: unknown }[] } | undefined)?.items?.[0]?.id : undefined;
        if (r.names && typeof first === 'string') ids[r.names] = first;
        if (r.op === 'getSpaceById' && result?.status === 200) title = (result.body as { title?: string }).title;
      }
      // One write, rolled back: a change of the first space to the title it has.
      if (ids.space && title !== undefined) {
        const input = { path: { spaceId: ids.space }, query: {}, body: { title }, headers: {} };
        let changes: Changes | undefined;
        const store = rollingBack(ctx.store, (c) => (changes = c));
        await call(`${WARM_UP_WRITE} (rolled back)`, WARM_UP_WRITE, input, { ...ctx, store });
        // Its rows, committed to a scratch store: the commit's code run once.
        if (changes) {
          const ok = await commitToScratch(changes).then(
            () => 200,
            () => 0,
          );
          done.push({ read: `${WARM_UP_WRITE} (committed in scratch)`, status: ok });
        }
      }
      // The search, last: the search thread, started while the store opened, has had the most time
      // to open the index files and answer its early ranking.
      const word = ids.space ? await warmUpSearchWord(ctx, ids.space).catch(() => null) : null;
      if (word) {
        await call(WARM_UP_SEARCH, WARM_UP_SEARCH, { path: { spaceId: ids.space! }, query: { query: word, limit: '1' }, headers: {} });
      }
      return done;
    },
  };
}

/** The warm-up's write body: refused by the write's validator (`title` is a string). */
const REFUSED_BODY = '{"title":0}';

/** The status of a request (0 when it failed or timed out); its answer is read and dropped. */
function ask(host: string, port: number, method: string, path: string, headers: Record<string, string>, agent: Agent, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const withBody = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = request({ host, port, method, path, headers: withBody, agent, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** Bounds of `quietAfterStart` (tests lower them). */
export const workerDeferral = {
  /** How long no request must have been in flight. */
  quietMs: 50,
  /** The longest wait from the call, requests or not. */
  maxMs: 1000,
};

/**
 * Resolves once no request of `server` has been in flight for `workerDeferral.quietMs`, or
 * `maxMs` after the call at the latest (a steady load does not hold background work back
 * longer), or when the server closes. For the workers' first passes (server/serve.ts
 * `deferWorkers`): a client that sends its requests as soon as the server is ready has them
 * answered before those passes run. Keeps nothing alive.
 */
export function quietAfterStart(server: Server): Promise<void> {
  const { quietMs, maxMs } = workerDeferral;
  return new Promise((resolve) => {
    const t0 = performance.now();
    let inFlight = 0;
    let last = t0;
    const seen = (_req: IncomingMessage, res: ServerResponse) => {
      inFlight++;
      res.once('close', () => {
        inFlight--;
        last = performance.now();
      });
    };
    const done = () => {
      server.off('request', seen);
      server.off('close', done);
      clearTimeout(timer);
      resolve();
    };
    let timer: NodeJS.Timeout;
    const check = () => {
      const now = performance.now();
      if (now - t0 >= maxMs || (inFlight === 0 && now - last >= quietMs)) return done();
      // Next when the quiet period could be over (or the bound reached), not on every tick.
      timer = setTimeout(check, Math.max(1, Math.min(maxMs - (now - t0), inFlight ? quietMs : quietMs - (now - last)))).unref();
    };
    server.on('request', seen);
    server.once('close', done);
    timer = setTimeout(check, Math.min(quietMs, maxMs)).unref();
  });
}
