import { createHash } from 'node:crypto';
import { mintPublishedToken } from '../auth/scope.js';
import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { siteRedirectFor } from '../sites/redirect-operations.js';
import type { ReadTx } from '../store/port.js';
import { parseUrl } from './app-urls.js';
import { loadApis } from './site/api-load.js';
import { siteSegments } from './site/open.js';
import { apisToLoad, firstPage, movedFrom, pageVisible, spacePages } from './site/pages.js';
import { findSite, locate, mayEnter, siteForHostname, siteView, type SiteRef, type SpaceEntry } from './site/site.js';
import { unsignedClaims, verifyVisitorToken, type Visitor } from './site/visitor.js';

// getPublishedContentByUrl / resolvePublishedContentByUrl (docs/manual/sites.md#published-urls):
// what a URL of a site published by this server shows, as its visitor sees it. The URL is one of
// this server's own addresses: `<base>/sites/<org>/<basename>/...` (a share link's `?share=` and
// `?jwt_token=` / `?visitor.NAME=` included) or a custom hostname whose DNS check passed; it is
// read, never requested (any other host is a 404, a URL that is not http(s) or carries
// credentials a 400). The visitor's rules are the published site's (src/urls/site/): a site
// that is not published, a share-link site without an active link's key, a visitor-auth site
// without a valid token, a page closed to the visitor's claims: the same 404 as no site.

interface LookupInput {
  url: string;
  token?: string;
  unsigned?: Record<string, unknown>;
  redirectOnError: boolean;
}

type Redirect = { target: 'content' | 'application'; redirect: string } | { target: 'external'; site: string; redirect: string };

interface Found {
  ref: SiteRef;
  entry: SpaceEntry;
  visitor: Visitor;
  revision: string;
  pathname: string;
  /** The path before the site's own segments in the input URL, and the origin it is on. */
  origin: string;
  prefix: string;
}

const nothingAt = (url: string) => notFound(`${url} is not the address of a page of a site published by this server (or the visitor may not see it)`);

/** The site an address of this server names, and the segments after the site's own address. */
function siteAt(tx: ReadTx, ctx: Context, url: URL): { ref: SiteRef; rest: string[]; prefix: string } | undefined {
  const base = parseUrl(ctx.baseUrl);
  if (base && url.origin === base.origin) {
    const root = base.pathname.replace(/\/+$/, '');
    if (!url.pathname.startsWith(`${root}/sites/`)) return undefined;
    const segs = siteSegments(url.pathname.slice(root.length));
    if (!segs) return undefined;
    const [orgKey, basename, ...rest] = segs as [string, string, ...string[]];
    const ref = findSite(tx, orgKey, basename);
    return ref ? { ref, rest, prefix: `${root}${ref.base}` } : undefined;
  }
  // A custom hostname serves its site at its root (and at the site's path, as on this server).
  const ref = siteForHostname(tx, url.hostname.toLowerCase());
  if (!ref) return undefined;
  const under = url.pathname === ref.base || url.pathname.startsWith(`${ref.base}/`);
  const segs = siteSegments(`/sites/o/s${under ? url.pathname.slice(ref.base.length) : url.pathname}`);
  if (!segs) return undefined;
  return { ref, rest: segs.slice(2), prefix: under ? ref.base : '' };
}

/** Where a visitor-auth site's sign-in backend would take this visitor (redirectOnError), if it has one. */
function signIn(ref: SiteRef, url: URL, rest: string[]): Redirect | undefined {
  const backend = ref.site.visibility === 'visitor-auth' ? ref.site.visitorAuth?.fallbackURL : undefined;
  if (!backend) return undefined;
  const to = new URL(backend);
  const q = new URLSearchParams(url.search);
  q.delete('jwt_token');
  const qs = q.toString();
  to.searchParams.set('location', `/${rest.map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`);
  return { target: 'external', site: ref.site.id, redirect: to.toString() };
}

async function lookup(ctx: Context, input: LookupInput): Promise<Found | Redirect> {
  const url = parseUrl(input.url);
  if (!url) throw invalid(`url: ${JSON.stringify(input.url)} is not an absolute http(s) URL`);
  if (url.username || url.password) throw invalid('url: must not carry a user name or password');
  const at = await ctx.store.read((tx) => siteAt(tx, ctx, url));
  if (!at) throw nothingAt(input.url);
  const { ref, rest, prefix } = at;
  // The visitor: the URL's share key, the token given (or the URL's), unsigned claims the site's schema declares.
  const q = url.searchParams;
  const token = input.token ?? q.get('jwt_token') ?? undefined;
  const given: Record<string, string> = {};
  for (const [k, v] of q) if (k.startsWith('visitor.') && k.length > 8) given[k.slice(8)] = v;
  for (const [k, v] of Object.entries(input.unsigned ?? {})) {
    if (['string', 'number', 'boolean'].includes(typeof v)) given[k] = String(v);
    else if (Array.isArray(v)) given[k] = v.map(String).join(',');
  }
  let claims: Record<string, unknown> = {};
  let signed = false;
  if (token) {
    const verified = await verifyVisitorToken(ctx, token, ref.site);
    if (!verified) {
      const to = input.redirectOnError ? signIn(ref, url, rest) : undefined;
      if (to) return to;
      throw nothingAt(input.url);
    }
    claims = verified;
    signed = true;
  }
  const unsigned = unsignedClaims(ref.site, given);
  if (Object.keys(unsigned).length) claims = { ...claims, unsigned: { ...((claims.unsigned as object) ?? {}), ...unsigned } };
  const shareKey = ref.site.visibility === 'share-link' ? (q.get('share') ?? undefined) : undefined;
  const visitor: Visitor = { ...(shareKey ? { shareKey } : {}), claims, signed };
  const origin = url.origin;
  const address = (to: string) => `${origin}${prefix}${to.slice(ref.base.length)}`;

  const read = () =>
    ctx.store.read((tx): Found | Redirect | 'refused' | 'none' | { load: ReturnType<typeof apisToLoad> } => {
      if (!mayEnter(tx, ref.site, visitor)) return 'refused';
      const place = locate(siteView(tx, ref, visitor), rest);
      if (place.kind === 'redirect') return { target: 'content', redirect: address(place.to) };
      const moved = () => {
        const r = siteRedirectFor(tx, ctx, ref, rest, '');
        if (!r) return 'none' as const;
        return r.external ? { target: 'external' as const, site: ref.site.id, redirect: r.to } : { target: 'content' as const, redirect: r.to };
      };
      if (place.kind === 'none') return moved();
      const { entry } = place;
      const load = apisToLoad(tx, [entry.space]);
      if (load.length) return { load };
      const ix = spacePages(tx, entry.space);
      const path = place.rest.join('/');
      let page = path ? ix.byPath.get(path) : firstPage(ix, visitor);
      if (page && !pageVisible(ix, page, visitor)) page = undefined;
      if (path && !page) {
        const now = movedFrom(tx, entry.space, ix, path);
        if (now && pageVisible(ix, now, visitor))
          return { target: 'content', redirect: `${address(entry.url)}/${now.path.split('/').map(encodeURIComponent).join('/')}` };
        return moved();
      }
      return { ref, entry, visitor, revision: ix.rev.id, pathname: path, origin, prefix };
    });
  let got = await read();
  if (typeof got === 'object' && 'load' in got) {
    await loadApis(ctx, got.load);
    got = await read();
  }
  if (got === 'refused') {
    const to = input.redirectOnError ? signIn(ref, url, rest) : undefined;
    if (to) return to;
    throw nothingAt(input.url);
  }
  if (got === 'none' || 'load' in got) throw nothingAt(input.url);
  return got;
}

/** The contract's PublishedSiteContentLookup: a redirect, or the content with a token reading it as the caller. */
async function lookupBody(ctx: Context, caller: Caller, input: LookupInput) {
  const found = await lookup(ctx, input);
  if (!('entry' in found)) return found;
  const { ref, entry, visitor, origin, prefix, pathname } = found;
  const spaceBase = `${prefix}${entry.url.slice(ref.base.length)}`;
  const { token } = await ctx.store.write((tx) =>
    mintPublishedToken(tx, ctx, caller.userId, { organization: ref.org.id, site: ref.site.id, space: entry.space.id }),
  );
  return {
    site: ref.site.id,
    ...(entry.section.row ? { siteSection: entry.section.row.id } : {}),
    siteSpace: entry.ss.id,
    space: entry.space.id,
    revision: found.revision,
    pathname,
    basePath: `${spaceBase}/`,
    siteBasePath: `${prefix}/`,
    apiToken: token,
    organization: ref.org.id,
    ...(visitor.shareKey ? { shareKey: visitor.shareKey } : {}),
    complete: true,
    // A visitor with a signed token: a digest of their claims (what the content they see depends on).
    ...(visitor.signed ? { contextId: createHash('sha256').update(JSON.stringify(visitor.claims)).digest('hex').slice(0, 24) } : {}),
    canonicalUrl: `${origin}${spaceBase}${pathname ? `/${pathname.split('/').map(encodeURIComponent).join('/')}` : ''}`,
  };
}

const flag = (v: unknown) => v === true || v === 'true';

/** GET /v1/urls/published?url=&visitorAuthToken=&redirectOnError= */
export const getPublishedContentByUrl = defineOperation('getPublishedContentByUrl', async ({ ctx, caller, query }) => ({
  status: 200,
  body: await lookupBody(ctx, caller, {
    url: String(query.url),
    ...(query.visitorAuthToken !== undefined ? { token: String(query.visitorAuthToken) } : {}),
    redirectOnError: flag(query.redirectOnError),
  }),
}));

/** POST /v1/urls/published {url, visitor: {jwtToken, unsignedClaims}, redirectOnError} */
export const resolvePublishedContentByUrl = defineOperation('resolvePublishedContentByUrl', async ({ ctx, caller, body }) => {
  const b = (body ?? {}) as { url: string; redirectOnError?: boolean; visitor?: { jwtToken?: string; unsignedClaims?: Record<string, unknown> } };
  return {
    status: 200,
    body: await lookupBody(ctx, caller, {
      url: b.url,
      ...(b.visitor?.jwtToken !== undefined ? { token: b.visitor.jwtToken } : {}),
      ...(b.visitor?.unsignedClaims ? { unsigned: b.visitor.unsignedClaims } : {}),
      redirectOnError: flag(b.redirectOnError),
    }),
  };
});
