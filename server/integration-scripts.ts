import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';

/**
 * GET /integration-scripts/<installation>/<site>.js: a site integration script, for the site's
 * visitors (no token: src/integrations/scripts.ts). Served as JavaScript, never sniffed.
 */
export async function serveIntegrationScript(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET', 'HEAD'] });
  const { siteScript } = await import('../src/integrations/scripts.js');
  const bytes = await siteScript(ctx, pathname);
  res.writeHead(200, {
    'content-type': 'text/javascript; charset=utf-8',
    'content-length': bytes.length,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return 200;
}
