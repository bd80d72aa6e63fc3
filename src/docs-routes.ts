import type { Caller, Context } from './kernel/context.js';
import { notFound } from './kernel/errors.js';

// Routes of this server outside the contract (under /_docs/, not /v1), answered for an
// authenticated caller by the server (server/docs-routes.ts) and in-process (LocalTransport.docs)
// alike: API tokens (docs tokens), deleted spaces (docs spaces list --deleted) and dry runs (--dry-run of
// sites publish and cr merge).

export const isDocsRoute = (path: string) => path === '/_docs/dry-run' || path === '/_docs/tokens' || path.startsWith('/_docs/tokens/') || path === '/_docs/deleted-spaces';

export async function docsRoute(ctx: Context, caller: Caller, method: string, path: string, query: Record<string, unknown>, body: unknown): Promise<{ status: number; body: unknown }> {
  if (path === '/_docs/dry-run' && method === 'POST') return (await import('./dry-run.js')).dryRunRoute(ctx, caller, body);
  if (path === '/_docs/deleted-spaces') return (await import('./spaces/deleted.js')).deletedSpacesRoute(ctx, caller, method, query);
  if (path === '/_docs/tokens' || path.startsWith('/_docs/tokens/')) return (await import('./auth/token-admin.js')).tokenRoute(ctx, caller, method, path, query, body);
  throw notFound(`no route for ${method} ${path}`);
}
