import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, bearer } from '../src/auth/tokens.js';
import type { Context } from '../src/kernel/context.js';
import { docsRoute } from '../src/docs-routes.js';
import { hasBody, header, readJsonBody } from './body.js';

/**
 * /_docs/tokens (`docs tokens create|list|revoke`) and /_docs/deleted-spaces (`docs spaces list
 * --deleted`) on this server: not contract operations, so outside /v1 (src/docs-routes.ts).
 * Authenticated with the caller's bearer token like the API; errors in the API's error body
 * (the caller's fail()).
 */
export async function serveDocsRoute(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  const caller = await authenticate(ctx, bearer(header(req, 'authorization')));
  const body = hasBody(req) ? await readJsonBody(req) : undefined;
  const query = Object.fromEntries(new URLSearchParams(search));
  const answer = await docsRoute(ctx, caller, req.method ?? 'GET', pathname, query, body);
  const payload = Buffer.from(JSON.stringify(answer.body));
  // A created token's secret is in this body: no cache may keep it.
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length, 'cache-control': 'no-store' });
  res.end(payload);
  return answer.status;
}
