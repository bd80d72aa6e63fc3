import type { IncomingMessage, ServerResponse } from 'node:http';
import { visitorJwks } from '../src/auth/visitor-keys.js';
import { Router } from '../src/contract/router.js';
import type { Context } from '../src/kernel/context.js';
import { asDocsError, DocsError } from '../src/kernel/errors.js';
import { invoke, type InvokeResult } from '../src/invoke.js';
import { isDocsRoute } from '../src/docs-routes.js';
import { serializedBytes } from '../src/kernel/serialized.js';
import { loadedOperation, OPERATION_IDS } from '../src/operations.js';
import { Answers } from './answers.js';
import { clientErrorStatus, hasBody, header, readJsonBody } from './body.js';
import { corsHandler } from './cors.js';
import { serveDownload, serveFont, servePdf } from './downloads.js';
import { serveMcp } from './mcp.js';
import { hostCheck, hostName } from './host-check.js';
import { isPublishedPath, servePublishedPath } from './published.js';
import { RateLimiter } from './rate-limit.js';
import { sendEvents } from './sse.js';

export type RequestLog = (line: string) => void;

/** What `docs serve` flags decide about who may reach the server and how often. */
export interface HttpOptions {
  /** The address listened on: its name is accepted in Host headers (server/host-check.ts). */
  host?: string;
  /** More names accepted in Host headers (`--allowed-host`). */
  allowedHosts?: string[];
  /** Origins given CORS headers (`--cors`, server/cors.ts). */
  cors?: string[];
  /** Requests per minute per token (`--rate-limit`); 0 or undefined: none (server/rate-limit.ts). */
  rateLimit?: number;
  /**
   * The server's own warm-up request before it says it is ready (server/warm-up.ts): not logged,
   * and not counted against its token's rate limit (the session token in-process commands use).
   */
  isWarmUp?: (req: IncomingMessage) => boolean;
}

/** A response that failed with a server-side error remembers its message for the log line. */
type Answer = ServerResponse & { errorMessage?: string };

function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string | string[]>): Buffer | undefined {
  // A Buffer, not a string: encoding a string inside the socket write costs as much again.
  // Headers as one flat array: writeHead's fast path, no per-header setHeader bookkeeping.
  // Bodies a presenter serialized once (src/kernel/serialized.ts) are written as they are.
  const payload = body === undefined || status === 204 || status === 205 ? undefined : (serializedBytes(body) ?? Buffer.from(JSON.stringify(body)));
  const raw: (string | number | string[])[] = payload ? ['content-type', JSON_TYPE, 'content-length', payload.length] : ['content-length', 0];
  if (headers) for (const k in headers) raw.push(k, headers[k]!);
  if (status >= 500) (res as Answer).errorMessage = (body as any)?.error?.message;
  res.writeHead(status, raw as any);
  res.end(payload);
  return payload;
}

/** A kept answer (server/answers.ts): its bytes, as send() wrote them the first time. */
function sendBytes(res: ServerResponse, payload: Buffer, headers?: Record<string, string>) {
  const raw: (string | number)[] = ['content-type', JSON_TYPE, 'content-length', payload.length];
  if (headers) for (const k in headers) raw.push(k, headers[k]!);
  res.writeHead(200, raw as any);
  res.end(payload);
}

/** The HTTP adapter: `/v1` + the contract's routes -> invoke -> JSON, errors in the contract's body. */
export function createHandler(ctx: Context, requestLog?: RequestLog, closing: () => boolean = () => false, opts: HttpOptions = {}) {
  const router = new Router(OPERATION_IDS);
  const checkHost = hostCheck(opts.host ?? '127.0.0.1', opts.allowedHosts);
  const cors = corsHandler(opts.cors ?? []);
  const limiter = new RateLimiter({ perTokenPerMinute: opts.rateLimit });
  // The warm-up's requests (server/warm-up.ts) pass limits of their own, made alike and dropped
  // after: the limits' code runs (the client's address read, the token remembered), and the
  // server's limits count nothing of them. Without it a first request ran that code for the
  // first time (docs/manual/performance.md, "First requests").
  const auth = (req: IncomingMessage, res: ServerResponse) =>
    (opts.isWarmUp?.(req) ? new RateLimiter({ perTokenPerMinute: opts.rateLimit }) : limiter).authenticate(ctx, req, res);
  const answers = new Answers();

  const fail = (_req: IncomingMessage, res: ServerResponse, err: unknown): number => {
    const e = asDocsError(err);
    if (e.kind === 'bug' && process.env.DEBUG) console.error(err);
    const allow = (e as any).allow as string[] | undefined;
    const headers: Record<string, string> = { ...(allow ? { allow: allow.join(', ') } : {}), ...(e as any).headers };
    // The connection may still be sending a body we refuse to read: close it after answering.
    if (e.kind === 'too_large') headers.connection = 'close';
    if (!res.headersSent) send(res, e.status, e.toBody(), headers);
    else res.destroy();
    return e.status;
  };

  return (req: IncomingMessage, res: Answer): void => {
    const log = requestLog && opts.isWarmUp?.(req) ? undefined : requestLog;
    const started = log ? performance.now() : 0;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    // A 5xx line says why (a full disk, a damaged shard file): the operator reads the log, not the body.
    // A request cut off by Node's parser was answered on the socket (server/serve.ts): log that.
    const done = (handled: number, status = clientErrorStatus(req) ?? handled) =>
      log?.(
        `${req.method} ${pathname} ${status} ${(performance.now() - started).toFixed(1)}ms${status >= 500 && res.errorMessage ? ` ${res.errorMessage}` : ''}`,
      );
    // While shutting down, answer what arrives on open connections, then close them.
    if (closing()) res.shouldKeepAlive = false;
    try {
      // Before anything else, /health, sites and /mcp included: a page on another origin that
      // rebound its name to this address is refused here (421), and CORS is only for --cors origins.
      try {
        checkHost(req.headers.host);
      } catch (refused) {
        // A site's custom hostname whose DNS check passed is allowed too, and serves that site only
        // (docs/manual/site-delivery.md#custom-hostnames): one store read, for names refused otherwise.
        const name = hostName(req.headers.host ?? '');
        if (!name) throw refused;
        import('../src/urls/site/site.js')
          .then(({ siteForHostname }) => ctx.store.read((tx) => siteForHostname(tx, name)))
          .then((ref) => {
            if (!ref) return fail(req, res, refused);
            const path = pathname === ref.base || pathname.startsWith(`${ref.base}/`) ? pathname : `${ref.base}${pathname === '/' ? '' : pathname}`;
            return servePublishedPath(ctx, req, res, path, q === -1 ? '' : url.slice(q + 1));
          })
          .then(done, (err) => done(fail(req, res, err)));
        return;
      }
      if (cors?.(req, res)) return done(204);
      // Published sites and the app's views: HTML (server/published.ts), tried first (their prefixes
      // are no other route's; a site's reads are the most frequent requests); the app's sign-in and
      // session cookies behind the same failed-authentication limit as tokens.
      if (isPublishedPath(pathname)) {
        servePublishedPath(ctx, req, res, pathname, q === -1 ? '' : url.slice(q + 1), (secret, check) => limiter.checked(ctx, req, secret, check)).then(
          done,
          (err) => done(fail(req, res, err)),
        );
        return;
      }
      // For scripts, CI and load balancers: no token. 503 with the error body naming the store
      // while the store cannot serve (PostgreSQL unreachable: src/store/pg-backend.ts).
      if (pathname === '/health') {
        const health = ctx.store.health?.();
        if (!health) return done((send(res, 200, { status: 'ok' }), 200));
        health.then(
          (h) =>
            done(h.ok ? (send(res, 200, { status: 'ok' }), 200) : (send(res, 503, { status: 'unavailable', error: { code: 503, message: h.message } }), 503)),
          (err) => done(fail(req, res, err)),
        );
        return;
      }
      // Public keys that verify the visitor-claims JWTs of POST /v1/orgs/{id}/ping: no token needed.
      if (pathname === '/.well-known/jwks.json') {
        if (req.method !== 'GET')
          throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET'] });
        visitorJwks(ctx).then(
          (jwks) => done((send(res, 200, jwks, { 'cache-control': 'public, max-age=300' }), 200)),
          (err) => done(fail(req, res, err)),
        );
        return;
      }
      // File downloads (`downloadURL`): signed, expiring URLs, no token (src/content/downloads.ts).
      if (pathname.startsWith('/files/')) {
        serveDownload(ctx, req, res, pathname, q === -1 ? '' : url.slice(q + 1)).then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // Custom fonts' files, no token (docs/manual/site-delivery.md#custom-fonts); they are uploaded at /storage/ like any file.
      if (pathname.startsWith('/fonts/')) {
        serveFont(ctx, req, res, pathname).then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // Rendered PDFs (getSpacePDF, getChangeRequestPDF): signed, expiring URLs too (src/pdf/files.ts).
      if (pathname.startsWith('/pdf/')) {
        servePdf(ctx, req, res, pathname, q === -1 ? '' : url.slice(q + 1)).then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // Signed upload URLs (generateStorageUploadURL): one upload each, no token (server/storage-upload.ts).
      if (pathname.startsWith('/storage/')) {
        import('./storage-upload.js')
          .then((m) => m.serveStorageUpload(ctx, req, res, pathname, q === -1 ? '' : url.slice(q + 1)))
          .then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // Site integration scripts (listSiteIntegrationScripts): for visitors, no token (server/integration-scripts.ts).
      if (pathname.startsWith('/integration-scripts/')) {
        import('./integration-scripts.js').then((m) => m.serveIntegrationScript(ctx, req, res, pathname)).then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // MCP (Streamable HTTP) for agents, with a bearer token as for the API (server/mcp.ts).
      if (pathname === '/mcp') {
        serveMcp(ctx, req, res, q === -1 ? '' : url.slice(q + 1), auth).then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // `docs backup` while this server holds the data directory (session token only).
      if (pathname === '/_docs/backup') {
        import('./backup.js').then((m) => m.serveBackup(ctx, req, res)).then(done, (err) => done(fail(req, res, err)));
        return;
      }
      // `docs tokens|users ...`, `docs invites pending|accept|decline`, `docs spaces list --deleted` (caller's bearer token; server/docs-routes.ts).
      if (isDocsRoute(pathname)) {
        import('./docs-routes.js')
          .then((m) => m.serveDocsRoute(ctx, req, res, pathname, q === -1 ? '' : url.slice(q + 1), auth))
          .then(done, (err) => done(fail(req, res, err)));
        return;
      }
      if (pathname !== '/v1' && !pathname.startsWith('/v1/')) throw new DocsError('not_found', `no route for ${req.method} ${pathname} (the API is under /v1)`);
      const route = router.match(req.method ?? 'GET', pathname.slice(3));
      const query = q === -1 ? {} : parseQuery(url.slice(q + 1));
      // Authentication reads the store (a promise); the body, if any, is read only once it passed.
      // Failed authentications are limited per address, requests per token (server/rate-limit.ts).
      const status = auth(req, res).then((caller) => {
        // A read that keeps its answer, asked again by the same token at the same URL since the
        // last commit: the same bytes (server/answers.ts). Authenticated above all the same.
        const key =
          req.method === 'GET' && !caller.scope && loadedOperation(route.operationId)?.keepsAnswer && !hasBody(req)
            ? `${header(req, 'authorization')}\n${url}`
            : undefined;
        const generation = key === undefined ? undefined : ctx.store.generation?.();
        if (key !== undefined) {
          const hit = answers.get(key, generation);
          if (hit) return (sendBytes(res, hit.bytes, hit.headers), 200);
        }
        const respond = (body: unknown) => {
          const result = invoke(ctx, route.operationId, { path: route.path, query, body, headers: req.headers }, caller);
          // A streamed answer (text/event-stream in the contract): server/sse.ts.
          const answer = (r: InvokeResult): number | Promise<number> => {
            if (r.events) return sendEvents(res, r.status, r.events, r.headers);
            const bytes = send(res, r.status, r.body, r.headers);
            if (key !== undefined && r.status === 200 && bytes) answers.keep(key, generation, ctx.store.generation?.(), { bytes, headers: r.headers });
            return r.status;
          };
          return result instanceof Promise ? result.then(answer) : answer(result);
        };
        return hasBody(req) ? readJsonBody(req).then(respond) : respond(undefined);
      });
      status.then(done, (err) => done(fail(req, res, err)));
    } catch (err) {
      done(fail(req, res, err));
    }
  };
}
