import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, bearer } from '../src/auth/tokens.js';
import { visitorJwks } from '../src/auth/visitor-keys.js';
import { Router } from '../src/contract/router.js';
import type { Context } from '../src/kernel/context.js';
import { asDocsError, DocsError } from '../src/kernel/errors.js';
import { invoke } from '../src/invoke.js';
import { OPERATIONS } from '../src/operations.js';
import { readJsonBody } from './body.js';

export type RequestLog = (line: string) => void;

function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string | string[]>) {
  const payload = body === undefined || status === 204 || status === 205 ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(payload ? { 'content-type': 'application/json; charset=utf-8' } : {}),
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** The HTTP adapter: `/v1` + the contract's routes -> invoke -> JSON, errors in the contract's body. */
export function createHandler(ctx: Context, log?: RequestLog, closing: () => boolean = () => false) {
  const router = new Router(OPERATIONS.map((o) => o.operationId));
  return async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // While shutting down, answer what arrives on open connections, then close them.
    if (closing()) res.shouldKeepAlive = false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    let status = 500;
    try {
      // Public keys that verify the visitor-claims JWTs of POST /v1/orgs/{id}/ping: no token needed.
      if (pathname === '/.well-known/jwks.json') {
        if (req.method !== 'GET') throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET'] });
        status = 200;
        return send(res, 200, await visitorJwks(ctx), { 'cache-control': 'public, max-age=300' });
      }
      if (pathname !== '/v1' && !pathname.startsWith('/v1/')) throw new DocsError('not_found', `no route for ${req.method} ${pathname} (the API is under /v1)`);
      const route = router.match(req.method ?? 'GET', pathname.slice(3));
      const caller = authenticate(ctx, bearer(req.headers.authorization));
      const body = await readJsonBody(req);
      const result = await invoke(ctx, route.operationId, { path: route.path, query: q === -1 ? {} : parseQuery(url.slice(q + 1)), body }, caller);
      status = result.status;
      send(res, result.status, result.body, result.headers);
    } catch (err) {
      const e = asDocsError(err);
      if (e.kind === 'bug' && process.env.DEBUG) console.error(err);
      status = e.status;
      const allow = (e as any).allow as string[] | undefined;
      // The connection may still be sending a body we refuse to read: close it after answering.
      const headers: Record<string, string> = allow ? { allow: allow.join(', ') } : {};
      if (e.kind === 'too_large') headers.connection = 'close';
      if (!res.headersSent) send(res, e.status, e.toBody(), headers);
      else res.destroy();
    } finally {
      log?.(`${req.method} ${pathname} ${status} ${(performance.now() - started).toFixed(1)}ms`);
    }
  };
}
