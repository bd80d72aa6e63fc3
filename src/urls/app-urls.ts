import type { Context } from '../kernel/context.js';

// The addresses of this server's app views (`urls.app` in every contract object:
// src/spaces/present.ts, src/content/present.ts, src/change-requests/present.ts,
// src/collections/present.ts), read back into what they name. Only this server's origin and
// base path are addresses of its app; everything else is someone else's.

export type AppTarget =
  | { kind: 'collection'; url: string; organization: string; id: string }
  | { kind: 'space'; url: string; organization: string; space: string; changeRequest?: string; pagePath?: string };

/** An absolute http(s) URL, or undefined. */
export function parseUrl(raw: string): URL | undefined {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

/** What an app URL of this server names, or undefined for any other URL (or an app page that is not content). */
export function appTarget(ctx: Context, raw: string): AppTarget | undefined {
  const url = parseUrl(raw);
  const base = parseUrl(ctx.baseUrl);
  if (!url || !base || url.origin !== base.origin) return undefined;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/o/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  let segs: string[];
  try {
    segs = url.pathname.slice(prefix.length).split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined; // a malformed %-escape names nothing
  }
  const [organization, kind, id, ...rest] = segs;
  if (!organization || !id) return undefined;
  const at = url.href;
  if (kind === 'c' && rest.length === 0) return { kind: 'collection', url: at, organization, id };
  if (kind !== 's') return undefined;
  if (rest[0] === '~') {
    if (rest[1] !== 'changes' || !rest[2]) return undefined;
    return { kind: 'space', url: at, organization, space: id, changeRequest: rest[2], ...(rest.length > 3 ? { pagePath: rest.slice(3).join('/') } : {}) };
  }
  return { kind: 'space', url: at, organization, space: id, ...(rest.length ? { pagePath: rest.join('/') } : {}) };
}
