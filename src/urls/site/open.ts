import type { Located } from '../../content/tree.js';
import type { Context } from '../../kernel/context.js';
import type { ReadTx } from '../../store/port.js';
import { pageVisible, spacePages, type PageIndexed } from './pages.js';
import { findSite, listedSpaces, mayEnter, type SiteRef, type SiteView, type SpaceEntry } from './site.js';
import { unsignedClaims, verifyVisitorToken, type Visitor, type VisitorInput } from './visitor.js';

// Entering a published site as a visitor: the site at an address, and the visitor's share key,
// token and unsigned claims checked against it. Undefined whenever the visitor may not see it
// (no such site, not published, a forged or expired key or token): one answer for all of them.

export async function openSite(
  ctx: Context,
  orgKey: string,
  basename: string,
  inputFor: (siteId: string) => Omit<VisitorInput, 'fromQuery'>,
  /** false: the caller checks `mayEnter` itself, in the read it makes next (one read less per request). */
  check = true,
): Promise<{ ref: SiteRef; visitor: Visitor } | undefined> {
  const ref = await ctx.store.read((tx) => findSite(tx, orgKey, basename));
  if (!ref) return undefined;
  const input = inputFor(ref.site.id);
  let claims: Record<string, unknown> = {};
  let signed = false;
  if (input.token) {
    const verified = await verifyVisitorToken(ctx, input.token, ref.site);
    if (!verified) return undefined;
    claims = verified;
    signed = true;
  }
  const unsigned = unsignedClaims(ref.site, input.unsigned);
  if (Object.keys(unsigned).length) claims = { ...claims, unsigned: { ...((claims.unsigned as object) ?? {}), ...unsigned } };
  // Only a share-link site needs a key: one given elsewhere is ignored (and not kept in a cookie).
  const needsKey = ref.site.visibility === 'share-link';
  const visitor: Visitor = { ...(needsKey && input.shareKey ? { shareKey: input.shareKey } : {}), claims, signed };
  const ok = !check || (await ctx.store.read((tx) => mayEnter(tx, ref.site, visitor)));
  return ok ? { ref, visitor } : undefined;
}

// The segments of the paths asked most (a site's pages), kept: a request does not decode them again.
// Frozen: callers read them (and destructure into their own arrays).
const segmentsOf = new Map<string, readonly string[] | undefined>();
const SEGMENTS_MAX = 2000;

/** The segments of a site URL (`http://host/sites/<org>/<basename>/...` or its path), decoded; undefined if it is not one. */
export function siteSegments(url: string): readonly string[] | undefined {
  if (segmentsOf.has(url)) return segmentsOf.get(url);
  const got = parseSegments(url);
  // Bounded in entries and in the length of what is kept (any address may be asked).
  if (url.length > 300) return got;
  if (segmentsOf.size >= SEGMENTS_MAX) segmentsOf.clear();
  segmentsOf.set(url, got && Object.freeze(got));
  return got;
}

function parseSegments(url: string): string[] | undefined {
  let path = url;
  try {
    if (/^https?:\/\//i.test(url)) path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (!path.startsWith('/sites/')) return undefined;
  const raw = path.slice('/sites/'.length).split('/');
  while (raw.length && raw[raw.length - 1] === '') raw.pop();
  const out: string[] = [];
  for (const r of raw) {
    if (r.length > 512) return undefined;
    let s: string;
    try {
      s = decodeURIComponent(r);
    } catch {
      return undefined;
    }
    // Encoded slashes, NUL, dot segments, empty segments: not an address of the site.
    if (!s || s === '.' || s === '..' || /[/\\\0]/.test(s) || s.length > 256) return undefined;
    out.push(s);
  }
  return out.length >= 2 ? out : undefined;
}

/** A visible, listed document page of a site space, with its index. */
export interface ListedPage {
  entry: SpaceEntry;
  ix: PageIndexed;
  page: Located;
}

/** Every page the visitor may see and that is listed (not hidden), in navigation order. */
export function listedPages(tx: ReadTx, view: SiteView, opts: { robots?: boolean } = {}): ListedPage[] {
  const seen = new Set<string>();
  const out: ListedPage[] = [];
  for (const entry of listedSpaces(view)) {
    const ix = spacePages(tx, entry.space);
    for (const page of ix.docs) {
      if (seen.has(`${entry.ss.id}/${page.node.id}`)) continue;
      const hidden = page.node.hidden || page.ancestors.some((a) => ix.byId.get(a.id)?.node.hidden);
      if (hidden || (opts.robots && (page.node.noIndex || page.node.noRobotsIndex)) || !pageVisible(ix, page, view.visitor)) continue;
      seen.add(`${entry.ss.id}/${page.node.id}`);
      out.push({ entry, ix, page });
    }
  }
  return out;
}
