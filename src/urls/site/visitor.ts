import { createPublicKey } from 'node:crypto';
import { readVisitorKey, siteAudience, visitorAudience, VISITOR_KEY_ALG } from '../../auth/visitor-keys.js';
import type { Context } from '../../kernel/context.js';
import type { SiteRecord } from '../../sites/model.js';

// Who is looking at a published site. A visitor brings, each optional:
// - a share key (`?share=KEY`, then a cookie), which opens `share-link` sites;
// - a signed visitor token (`?jwt_token=JWT`, then a cookie): ES256, signed by this data
//   directory's visitor key (the `gitbookVisitorClaims` of the ping operation, or any token made
//   with that key) for this site or its organization (`aud`), whose payload are the visitor's
//   claims; it opens `visitor-auth` sites; a token for another audience opens nothing;
// - unsigned claims (`?visitor.NAME=VALUE`, then a cookie), kept only where the site's adaptive
//   schema declares them under `unsigned`, typed as it says.
// A forged or expired key or token makes the whole site answer 404, with no hint it exists.

export interface VisitorInput {
  shareKey?: string;
  token?: string;
  unsigned: Record<string, string>;
  /** True when the values came from the query (the handler then sets cookies and redirects). */
  fromQuery: boolean;
}

export interface Visitor {
  shareKey?: string;
  /** Claims of a valid token (with `unsigned` holding the unsigned ones the schema allows). */
  claims: Record<string, unknown>;
  /** Whether a valid signed token came with the request. */
  signed: boolean;
}

export const cookieNames = (siteId: string) => ({ share: `docs_share_${siteId}`, token: `docs_visitor_${siteId}`, unsigned: `docs_claims_${siteId}` });

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k || k in out) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      /* a cookie that is not ours, badly encoded: ignored */
    }
  }
  return out;
}

/** What the request says about its visitor, for one site: the query wins over cookies. */
export function visitorInput(query: URLSearchParams, cookies: Record<string, string>, siteId: string): VisitorInput {
  const names = cookieNames(siteId);
  const unsigned: Record<string, string> = {};
  let fromQuery = false;
  for (const [k, v] of query) {
    if (k.startsWith('visitor.') && k.length > 8) (unsigned[k.slice(8)] = v), (fromQuery = true);
  }
  if (!fromQuery && cookies[names.unsigned]) {
    try {
      const parsed = JSON.parse(Buffer.from(cookies[names.unsigned]!, 'base64url').toString('utf8'));
      if (parsed && typeof parsed === 'object') for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') unsigned[k] = v;
    } catch {
      /* ignored: unsigned claims are only a preference */
    }
  }
  const shareKey = query.get('share') ?? cookies[names.share];
  const token = query.get('jwt_token') ?? cookies[names.token];
  return {
    ...(shareKey ? { shareKey } : {}),
    ...(token ? { token } : {}),
    unsigned,
    fromQuery: fromQuery || query.has('share') || query.has('jwt_token'),
  };
}

/**
 * The claims of a token signed by this data directory's visitor key for `site` (its `aud` names
 * the site or its organization: src/auth/visitor-keys.ts); undefined if it is not valid (forged,
 * expired, other key, no audience or another one).
 */
export async function verifyVisitorToken(
  ctx: Context,
  token: string,
  site: Pick<SiteRecord, 'id' | 'organization' | 'visitorAuth'>,
): Promise<Record<string, unknown> | undefined> {
  const { jwtVerify } = await import('jose'); // loaded only when a visitor brings a token
  // The site's own key (its publishing auth, docs/manual/site-delivery.md#publishing-auth): a
  // token its sign-in backend signed (HS256), for this site alone; a regenerated key refuses the old ones.
  const own = site.visitorAuth?.privateKey;
  if (own) {
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(own), { algorithms: ['HS256'], currentDate: ctx.clock.now() });
      const { iss: _i, sub: _s, aud: _a, exp: _e, nbf: _n, iat: _t, jti: _j, ...claims } = payload;
      return { ...claims, ...(payload.sub ? { sub: payload.sub } : {}) };
    } catch {
      /* not signed with the site's key: the data directory's may have signed it */
    }
  }
  const meta = await ctx.store.read(readVisitorKey);
  if (!meta) return undefined;
  try {
    const { payload } = await jwtVerify(token, createPublicKey({ key: meta.publicJwk, format: 'jwk' }), {
      algorithms: [VISITOR_KEY_ALG],
      currentDate: ctx.clock.now(),
      // One of these must be in `aud`; a token without `aud` is refused too.
      audience: [siteAudience(site.id), visitorAudience(site.organization)],
    });
    const { iss: _i, sub: _s, aud: _a, exp: _e, nbf: _n, iat: _t, jti: _j, ...claims } = payload;
    return { ...claims, ...(payload.sub ? { sub: payload.sub } : {}) };
  } catch {
    return undefined;
  }
}

/** The unsigned claims the site's adaptive schema declares, converted to their declared types. */
export function unsignedClaims(site: SiteRecord, given: Record<string, string>): Record<string, unknown> {
  const declared = (site.adaptiveSchema?.jsonSchema as any)?.properties?.unsigned?.properties as Record<string, any> | undefined;
  const out: Record<string, unknown> = {};
  if (!declared) return out;
  for (const [k, raw] of Object.entries(given)) {
    const type = Object.hasOwn(declared, k) ? declared[k]?.type : undefined;
    if (type === 'string') out[k] = raw;
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) out[k] = raw === 'true';
    else if (type === 'number' && raw.trim() !== '' && Number.isFinite(Number(raw))) out[k] = Number(raw);
    else if (type === 'array') out[k] = raw.split(',').filter(Boolean);
  }
  return out;
}
