import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { bootstrap, ownerOf } from '../src/auth/bootstrap.js';
import { hashToken, tokenUsesWritten } from '../src/auth/tokens.js';
import type { Clock } from '../src/kernel/clock.js';
import type { Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';
import { newToken } from '../src/kernel/ids.js';
import { DEFAULT_PORT, openContext } from '../src/open.js';
import { loadAllOperations } from '../src/operations.js';
import { startSweeper } from '../src/space-purge.js';
import { tryLockProbed } from '../src/store/lock.js';
import { startWorkers, stopWorkers } from '../src/workers.js';
import { createHandler, type RequestLog } from './app.js';
import { recordClientError } from './body.js';
import { collectBeforeReady } from './collect-before-ready.js';
import { type PrewarmBudget, type Prewarmed, prewarm, recordCache, recordPeriodically } from './prewarm.js';
import { quietAfterStart, warmUp, type WarmedUp } from './warm-up.js';
import { ShardStore } from '../src/store/shard-store.js';

export interface ServeOptions {
  /** Data directory; undefined keeps everything in memory (tests). With `store`, it keeps file bytes only. */
  dataDir?: string;
  /** A PostgreSQL URL: the rows live there, shared with other `docs serve` processes. */
  store?: string;
  port?: number;
  host?: string;
  log?: RequestLog;
  /** How long a client may take to send its request headers (default 10 s). */
  headersTimeoutMs?: number;
  /** How long a client may take to send a whole request, body included (default 60 s). */
  requestTimeoutMs?: number;
  /** Open connections past which new ones are dropped (default 4096; tests lower it). */
  maxConnections?: number;
  /** How long to wait for an in-process CLI command that holds the data directory. */
  lockWaitMs?: number;
  /** Time source (tests pass a ManualClock to reach the 7-day retention without waiting). */
  clock?: Clock;
  /** How often deleted spaces past their retention are purged (default one minute). */
  sweepIntervalMs?: number;
  /** More host names accepted in Host headers besides 127.0.0.1, localhost, [::1] and `host`. */
  allowedHosts?: string[];
  /** Origins that get CORS headers (none by default). */
  cors?: string[];
  /** Requests per minute per token; undefined or 0: no per-token limit. */
  rateLimit?: number;
  /** Anyone's integration development tunnel may reach loopback and private addresses (`--allow-private-tunnels`). */
  allowPrivateTunnels?: boolean;
  /**
   * Load every area's handlers before listening, so that no first request of an area waits for
   * its module (issue 28 item 1). `docs serve` does: in its bundle they are lazy initializers of
   * code already read, ~20 ms of CPU and no RSS beyond noise (docs/manual/performance.md,
   * "First requests"). Tests' in-process servers, whose modules vitest transforms one by one,
   * load an area on its first call unless they ask.
   */
  loadAreas?: boolean;
  /**
   * Before returning (`docs serve`'s ready line), answer one request of its own (not logged), so
   * that the first request a client sends does not run the HTTP server, our handler and `invoke`
   * for the first time (issue 28 item 1; docs/manual/performance.md, "First requests", server/warm-up.ts);
   * then one full garbage collection, the process's first (server/collect-before-ready.ts).
   * `docs serve` does; tests' in-process servers do not unless they ask.
   */
  warmUp?: boolean;
  /**
   * Start the background workers but the search indexer once no request has been in flight for
   * `workerDeferral.quietMs`, at most `workerDeferral.maxMs` after ready, or at once when work is
   * kicked for one of them (src/workers.ts): their first passes ran beside the first requests
   * (docs/manual/performance.md, "First requests"). `docs serve` does; tests' in-process servers
   * start them at once unless they ask.
   */
  deferWorkers?: boolean;
  /**
   * Start the search thread, and have it open the data directory's index files, before the store
   * opens: its start (a worker, SQLite's module) and the files' opening ran between ready and the
   * first search, behind the indexer's first pass (issue 28 item 6; docs/manual/performance.md,
   * "Search and memory at scale"). `docs serve` does; tests' in-process servers start it on their
   * first search unless they ask.
   */
  searchEarly?: boolean;
  /**
   * On a data directory: record the shards the store's cache holds when the server closes, and
   * load those of the record left by the previous server before ready, within a strict budget
   * (server/prewarm.ts). `docs serve` does; tests' in-process servers and CLI commands do not.
   * A budget other than the default (PREWARM_BYTES, PREWARM_MS): tests on a loaded machine.
   */
  prewarm?: boolean | PrewarmBudget;
}

export interface Served {
  url: string;
  port: number;
  ctx: Context;
  /** With `warmUp`: its warm-up reads and their statuses (0: failed, which never fails a start). */
  warmedUp?: WarmedUp[];
  /** The bootstrap token when this start created the owner, printed once. */
  bootstrapToken?: string;
  /** When the store was open and when serve() returned (performance.now()): tests, diagnostics. */
  timings: { storeOpened: number; ready: number };
  /** With `prewarm`: the shards the record listed and those loaded before ready. */
  prewarmed?: Prewarmed;
  close(): Promise<void>;
}

/** How long a refused client gets to read our error answer before its connection is destroyed. */
const CLIENT_ERROR_GRACE_MS = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function holdDataDir(dir: string, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const got = await tryLockProbed(dir);
    if (got.ok) return got;
    // A CLI command holds it for one command only: wait for it. A server holds it for good.
    if (got.holder.url || Date.now() > deadline) {
      throw new DocsError(
        'conflict',
        `data directory ${dir} is held by ${got.holder.url ? `docs serve at ${got.holder.url}` : 'another docs process'} (pid ${got.holder.pid})`,
      );
    }
    await sleep(50);
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new DocsError('conflict', `port ${port} on ${host} is already in use (choose another with --port)`));
      else if (err.code === 'EACCES') reject(new DocsError('forbidden', `not allowed to listen on ${host}:${port}`));
      else reject(err);
    });
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

/** `docs serve`: holds the data directory, opens the store, bootstraps it, serves /v1. */
export async function serve(opts: ServeOptions = {}): Promise<Served> {
  const host = opts.host ?? '127.0.0.1';
  // On PostgreSQL several servers share the store (and the blob directory): nothing to hold.
  const lock = opts.dataDir && !opts.store ? await holdDataDir(opts.dataDir, opts.lockWaitMs ?? 5000) : undefined;
  let ctx: Context | undefined;
  let server: Server | undefined;
  try {
    // Started now, run beside the store's opening (the thread and SQLite open files apart from it).
    const searchThread =
      opts.searchEarly && opts.dataDir
        ? import('../src/search/indexes.js').then(
            (m) => m.startSearchThread(opts.dataDir!),
            () => {},
          )
        : undefined;
    try {
      ctx = await openContext(opts.dataDir, { clock: opts.clock, store: opts.store, statAtOpen: true });
    } catch (err) {
      // The thread may have opened the index files meanwhile: closed, so a refused start leaves
      // no file of its own behind (test/search/early-thread.test.ts).
      if (searchThread) await searchThread.then(() => import('../src/search/indexes.js')).then((m) => m.closeSearchThread());
      throw err;
    }
    await searchThread;
    const storeOpened = performance.now();
    if (opts.allowPrivateTunnels) ctx.allowPrivateTunnels = true;
    ctx.deferTokenUses = true;
    if (opts.loadAreas) await loadAllOperations();
    let stopping = false;
    // A slow client cannot hold the server: headers must arrive within 10 s and a whole request
    // (up to the 16 MiB body limit) within 60 s; idle keep-alive connections close after 5 s;
    // past 4096 open connections new ones are refused rather than exhausting memory.
    const headersTimeout = opts.headersTimeoutMs ?? 10_000;
    const warm = opts.warmUp ? warmUp() : undefined;
    server = createServer(
      {
        keepAliveTimeout: 5000,
        headersTimeout,
        requestTimeout: Math.max(opts.requestTimeoutMs ?? 60_000, headersTimeout),
        connectionsCheckingInterval: Math.min(1000, headersTimeout),
      },
      createHandler(ctx, opts.log, () => stopping, {
        host,
        allowedHosts: opts.allowedHosts,
        cors: opts.cors,
        rateLimit: opts.rateLimit,
        isWarmUp: warm?.isWarmUp,
      }),
    );
    server.maxConnections = opts.maxConnections ?? 4096;
    // Requests Node refuses before our handler sees them (oversized or malformed request lines
    // and headers, timeouts) still get the contract's error body.
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return socket.destroy();
      const [status, message] =
        err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'request headers too large']
          : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'request timeout: headers or body took too long']
            : [400, 'malformed HTTP request'];
      const body = JSON.stringify({ error: { code: status, message } });
      recordClientError(socket as Socket, status);
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      // end() only half-closes (the HTTP server allows half-open sockets): a client that never
      // reads the answer nor closes would keep the connection, and its slot under the cap, for
      // good. A well-behaved client closes on our FIN at once; the rest are cut off.
      setTimeout(() => socket.destroy(), CLIENT_ERROR_GRACE_MS).unref();
    });
    const addr = await listen(server, opts.port ?? DEFAULT_PORT, host);
    const http = server;
    // Bootstrap only once the port is ours: a start that fails must not create a token nobody saw.
    const boot = await bootstrap(ctx);
    const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    const url = `http://${shownHost}:${addr.port}`;
    ctx.baseUrl = url;
    // A token for in-process CLI commands run while this server holds the directory: they are
    // forwarded here. It is valid only for this process and lives in the owner-only lock file.
    const sessionToken = newToken();
    const owner = await ownerOf(ctx);
    if (owner) ctx.sessionTokens.set(hashToken(sessionToken), owner);
    lock?.update({ url, token: sessionToken });
    // Before the workers start: on a large store their first passes fill the thread pool with
    // reads, and a request behind them waited (docs/manual/performance.md, "First requests").
    const warmedUp = warm ? await warm.run(ctx, addr.port, host, owner ? sessionToken : undefined) : undefined;
    // The shards the previous server held, loaded again within a budget (server/prewarm.ts):
    // after the warm-up (its reads load theirs), before the collection (what it loads is live at ready).
    const cache = opts.prewarm && opts.dataDir && !opts.store && ctx.store instanceof ShardStore ? { dir: opts.dataDir, store: ctx.store } : undefined;
    const budget = typeof opts.prewarm === 'object' ? opts.prewarm : undefined;
    const prewarmed = cache ? await prewarm(cache.dir, cache.store, budget) : undefined;
    // Then the process's first full collection, which otherwise came during the first requests.
    if (warm) collectBeforeReady();
    const sweeper = startSweeper(ctx, opts.sweepIntervalMs);
    // Background work (OpenAPI processing, ...), resuming what an earlier process left; with
    // `deferWorkers`, all but the search indexer once the first requests were answered.
    startWorkers(ctx, { server: true, after: opts.deferWorkers ? quietAfterStart(http) : undefined });
    // The record written while the server runs too, so that a server killed leaves one.
    const stopRecording = cache ? recordPeriodically(cache.dir, cache.store, budget?.recordEveryMs) : undefined;
    let closing: Promise<void> | undefined;
    const c = ctx;
    return {
      url,
      port: addr.port,
      ctx,
      bootstrapToken: boot?.token,
      warmedUp,
      prewarmed,
      timings: { storeOpened, ready: performance.now() },
      close: () =>
        (closing ??= (async () => {
          stopping = true;
          sweeper.stop();
          await new Promise<void>((resolve) => {
            http.close(() => resolve());
            http.closeIdleConnections();
            // Clients that keep a connection busy past the grace period are cut off.
            setTimeout(() => http.closeAllConnections(), 10_000).unref();
          });
          await tokenUsesWritten(); // the uses recorded and not yet written (src/auth/tokens.ts)
          await stopWorkers(c);
          await c.store.close(); // every acknowledged write is already durable; this drains the queue
          await stopRecording?.();
          if (cache) await recordCache(cache.dir, cache.store); // while the directory is still held
          lock?.release();
        })()),
    };
  } catch (err) {
    // A start that failed (bootstrap could not be written: a full disk, a damaged store) must
    // not leave a server listening that answers 401 to everything: the port is released.
    if (server?.listening) {
      const s = server;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    }
    await ctx?.store.close();
    lock?.release();
    throw err;
  }
}
