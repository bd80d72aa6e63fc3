import { randomBytes } from 'node:crypto';
import type { Schema } from '../contract/types.js';
import type { Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import type { WriteTx } from '../store/port.js';
import type { SiteRecord, VisitorAuthSettings } from './model.js';
import { checkExternalUrl } from './redirects.js';
import { Sites } from './tables.js';

// A site's publishing auth (docs/manual/site-delivery.md#publishing-auth): the backend visitors
// of a `visitor-auth` site sign in at (its `fallbackURL`, where a visitor without a valid token
// is redirected) and the private key that backend signs their tokens with (HS256, besides the
// data directory's ES256 key: src/urls/site/visitor.ts). Made with the site; admins only, since
// the key is a secret.

const newKey = () => randomBytes(32).toString('base64url');

/** A new site's settings: its own key from the start, so reading them never writes (and every store a site is copied to answers the same key). */
export const newVisitorAuth = (ctx: Context): VisitorAuthSettings => ({ backend: 'custom', privateKey: newKey(), keyCreatedAt: ctx.clock.now().toISOString() });

/** The site's settings; a site made before sites had them gets them (with a new key) the first time they are asked for. */
export function ensureVisitorAuth(tx: WriteTx, ctx: Context, site: SiteRecord): VisitorAuthSettings {
  if (site.visitorAuth) return site.visitorAuth;
  const visitorAuth = newVisitorAuth(ctx);
  tx.put(Sites, { ...site, visitorAuth });
  return visitorAuth;
}

export function updateVisitorAuth(tx: WriteTx, ctx: Context, site: SiteRecord, body: { backend: string; fallbackURL?: string | null }): VisitorAuthSettings {
  if (body.backend !== 'custom')
    throw invalid('backend: this server authenticates visitors with a custom backend only (no integration provides visitor authentication here)');
  const current = ensureVisitorAuth(tx, ctx, site);
  const next: VisitorAuthSettings = { ...current, backend: 'custom' };
  if (body.fallbackURL === null) delete next.fallbackURL;
  else if (body.fallbackURL !== undefined) next.fallbackURL = checkExternalUrl(body.fallbackURL, 'fallbackURL');
  tx.put(Sites, { ...tx.get(Sites, site.id)!, visitorAuth: next });
  return next;
}

/** A new key: every token signed with the old one stops opening the site at once. */
export function regenerateVisitorAuth(tx: WriteTx, ctx: Context, site: SiteRecord): VisitorAuthSettings {
  const current = ensureVisitorAuth(tx, ctx, site);
  const next: VisitorAuthSettings = { ...current, privateKey: newKey(), keyCreatedAt: ctx.clock.now().toISOString() };
  tx.put(Sites, { ...tx.get(Sites, site.id)!, visitorAuth: next });
  return next;
}

export function presentVisitorAuth(v: VisitorAuthSettings): Schema<'SitePublishingAuth'> {
  return { object: 'publishing-auth', backend: v.backend, privateKey: v.privateKey, ...(v.fallbackURL ? { fallbackURL: v.fallbackURL } : {}) };
}
