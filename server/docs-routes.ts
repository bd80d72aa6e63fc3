import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller, Context } from '../src/kernel/context.js';
import { docsRoute } from '../src/docs-routes.js';
import { hasBody, readJsonBody } from './body.js';

/**
 * /_docs/tokens (`docs tokens create|list|revoke`) and /_docs/deleted-spaces (`docs spaces list
 * --deleted`) on this server: not contract operations, so outside /v1 (src/docs-routes.ts).
 * Authenticated with the caller's bearer token like the API, through the same `auth` (server/
 * rate-limit.ts): a wrong token guessed here counts against the address as on /v1 (a token is
 * worth guessing here too: /_docs/tokens mints new ones), and a token's requests count against
 * its --rate-limit. Errors in the API's error body (the caller's fail()).
 */
export async function serveDocsRoute(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  auth: (req: IncomingMessage, res: ServerResponse) => Promise<Caller>,
): Promise<number> {
  const caller = await auth(req, res);
  const body = hasBody(req) ? await readJsonBody(req) : undefined;
  const query = Object.fromEntries(new URLSearchParams(search));
  const answer = await docsRoute(ctx, caller, req.method ?? 'GET', pathname, query, body);
  const payload = Buffer.from(JSON.stringify(answer.body));
  // A created token's secret is in this body: no cache may keep it.
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length, 'cache-control': 'no-store' });
  res.end(payload);
  return answer.status;
}
