import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '../src/kernel/context.js';

// The HTML side of `docs serve`, outside the API: published sites (`/sites/...`) and the app's
// read-only views (`/o/...`, and `/integrations/<name>`, an integration's `urls.app`). Loaded on the first such request, so the API and the CLI never
// load the renderer (markdown, highlighting).

export const isPublishedPath = (pathname: string) => pathname.startsWith('/sites/') || pathname === '/o' || pathname.startsWith('/o/') || pathname.startsWith('/integrations/');

let sites: Promise<typeof import('../src/published/http.js')> | undefined;
let app: Promise<typeof import('../src/published/app/http.js')> | undefined;

export async function servePublishedPath(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (pathname.startsWith('/sites/')) return (await (sites ??= import('../src/published/http.js'))).servePublished(ctx, req, res, pathname, search);
  return (await (app ??= import('../src/published/app/http.js'))).serveApp(ctx, req, res, pathname, search);
}
