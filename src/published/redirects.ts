import type { Context } from '../kernel/context.js';
import { matchRedirect, normaliseSource, redirectsOf, targetUrl } from '../sites/redirects.js';
import { pagePathIn } from '../sites/redirect-operations.js';
import type { ReadTx } from '../store/port.js';
import type { SiteRef } from '../urls/site/site.js';

// The published site's side of site redirects (docs/manual/sites.md#redirects): an address under
// the site that leads to no page is looked up among the site's live redirects before the 404.

/** The segments (decoded) as a stored source is written: unreserved characters and `+` as is, the rest %-escaped. */
const asSource = (segments: string[]) => normaliseSource(`/${segments.map((s) => encodeURIComponent(s).replace(/%2B/gi, '+')).join('/')}`);

/** Where a redirect of the site sends `segments` (status 301 permanent, 302 otherwise), the visitor's query kept. */
export function siteRedirectFor(tx: ReadTx, ctx: Context, ref: SiteRef, segments: string[], search: string): { status: 301 | 302; to: string } | undefined {
  if (!segments.length) return undefined;
  let source: string;
  try {
    source = asSource(segments);
  } catch {
    return undefined;
  }
  const live = redirectsOf(tx, ref.site.id).filter((r) => !r.draft);
  if (!live.length) return undefined;
  const hit = matchRedirect(live, source);
  if (!hit) return undefined;
  const to = targetUrl(tx, ctx, ref.org, ref.site, hit.redirect, pagePathIn(tx), hit.suffix);
  if (to === undefined) return undefined;
  const q = search.replace(/^\?/, '');
  return { status: hit.redirect.permanent ? 301 : 302, to: q ? `${to}${to.includes('?') ? '&' : '?'}${q}` : to };
}
