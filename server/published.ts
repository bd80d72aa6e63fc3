import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '../src/kernel/context.js';
import type { AuthGuard } from './published/app.js';

// The HTML side of `docs serve`, outside the API: published sites (`/sites/...`) and the app's
// read-only views (`/o/...`, and `/integrations/<name>`, an integration's `urls.app`). Loaded on the first such request, so the API and the CLI never
// load the renderer (markdown, highlighting).

export const isPublishedPath = (pathname: string) =>
  pathname.startsWith('/sites/') || pathname === '/o' || pathname.startsWith('/o/') || pathname.startsWith('/integrations/');

/**
 * `/sites/<org>/<basename>/mcp` (and `/mcp/<slug>`, docs/manual/site-delivery.md#site-mcp-servers): the site's MCP server (server/mcp.ts), for every method but a
 * plain GET or HEAD, which stays the site's (a page may have the path `mcp`). A GET asking for an
 * event stream is an MCP client's, and gets the MCP endpoint's 405.
 */
const isSiteMcp = (req: IncomingMessage, pathname: string) =>
  /^\/sites\/[^/]+\/[^/]+\/mcp(?:\/[a-z0-9][a-z0-9-]{0,62})?$/.test(pathname) &&
  ((req.method !== 'GET' && req.method !== 'HEAD') || /text\/event-stream/.test(req.headers.accept ?? ''));

let sites: Promise<typeof import('./published/sites.js')> | undefined;
let sitesModule: typeof import('./published/sites.js') | undefined;
let app: Promise<typeof import('./published/app.js')> | undefined;

export async function servePublishedPath(
  ctx: Context,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  guard?: AuthGuard,
): Promise<number> {
  if (isSiteMcp(req, pathname)) return (await import('./mcp.js')).serveSiteMcp(ctx, req, res, pathname, search);
  if (pathname.startsWith('/sites/')) {
    // Once loaded, the module is called in this turn (no await on a settled import per request).
    if (sitesModule) return sitesModule.servePublished(ctx, req, res, pathname, search);
    sitesModule = await (sites ??= import('./published/sites.js'));
    return sitesModule.servePublished(ctx, req, res, pathname, search);
  }
  return (await (app ??= import('./published/app.js'))).serveApp(ctx, req, res, pathname, search, guard);
}
