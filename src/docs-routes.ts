import { refuseScoped } from './auth/scope.js';
import type { Caller, Context } from './kernel/context.js';
import { notFound } from './kernel/errors.js';

// Routes of this server outside the contract (under /_docs/, not /v1), answered for an
// authenticated caller by the server (server/docs-routes.ts) and in-process (LocalTransport.docs)
// alike: API tokens (docs tokens), the instance's users (docs users), the caller's pending
// invitations (docs invites pending|accept|decline), deleted spaces (docs spaces list --deleted),
// dry runs (--dry-run of sites publish and cr merge), the pages' pushed files (docs content pull,
// src/page-sources.ts), the content index and the push digest (docs content push, src/content-index.ts,
// src/push-digest.ts) and sites'
// custom hostnames (docs sites hostname add|list, src/sites/hostnames.ts).

const under = (path: string, base: string) => path === base || path.startsWith(`${base}/`);
const FAMILIES = ['/_docs/tokens', '/_docs/users', '/_docs/invitations'];

export const isDocsRoute = (path: string) =>
  path.startsWith('/_docs/') &&
  (path === '/_docs/dry-run' ||
    path === '/_docs/page-sources' ||
    path === '/_docs/deleted-spaces' ||
    path === '/_docs/content-index' ||
    path === '/_docs/push-digest' ||
    path === '/_docs/site-map' ||
    path === '/_docs/custom-hostnames' ||
    FAMILIES.some((f) => under(path, f)));

export async function docsRoute(
  ctx: Context,
  caller: Caller,
  method: string,
  path: string,
  query: Record<string, unknown>,
  body: unknown,
): Promise<{ status: number; body: unknown }> {
  // No /_docs route knows how to hold a scoped token to its scope (it could mint a full token): refused.
  refuseScoped(caller, path);
  if (path === '/_docs/dry-run' && method === 'POST') return (await import('./dry-run.js')).dryRunRoute(ctx, caller, body);
  if (path === '/_docs/page-sources') return (await import('./page-sources.js')).pageSourcesRoute(ctx, caller, method, query);
  if (path === '/_docs/push-digest') return (await import('./push-digest.js')).pushDigestRoute(ctx, caller, method, query);
  if (path === '/_docs/content-index') return (await import('./content-index.js')).contentIndexRoute(ctx, caller, method, query);
  if (path === '/_docs/site-map') return (await import('./sites/site-map.js')).siteMapRoute(ctx, caller, method, query, body);
  if (path === '/_docs/custom-hostnames') return (await import('./sites/hostnames.js')).hostnameRoute(ctx, caller, method, query, body);
  if (path === '/_docs/deleted-spaces') return (await import('./spaces/deleted.js')).deletedSpacesRoute(ctx, caller, method, query);
  if (under(path, '/_docs/tokens')) return (await import('./auth/token-admin.js')).tokenRoute(ctx, caller, method, path, query, body);
  if (under(path, '/_docs/users')) return (await import('./users/admin.js')).userRoute(ctx, caller, method, path, body);
  if (under(path, '/_docs/invitations')) return (await import('./invites/pending.js')).invitationRoute(ctx, caller, method, path);
  throw notFound(`no route for ${method} ${path}`);
}
