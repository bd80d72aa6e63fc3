import { presentHit, requireQuery } from '../content/operations.js';
import type { Caller, Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { warmSpaces } from '../search/service.js';
import { siteOf, SITE_READ } from '../sites/access.js';
import { siteAddress } from '../sites/present.js';
import { SiteSpaces } from '../sites/tables.js';
import type { ReadTx } from '../store/port.js';
import { contentAccess } from '../tree/access.js';
import { parseUrl } from './app-urls.js';
import { searchSiteView, type SiteSearchPage } from './site/search.js';
import { listedSpaces, siteRef, siteView, type SiteView, type SpaceEntry } from './site/site.js';

// A site's own search as an API (searchSiteContent, prewarmSiteSearch) and the preview of its
// structure (getSitePublishingPreviewById): docs/manual/sites.md#site-search-and-preview.
//
// The search is the published site's (src/urls/site/search.ts): the organization's full-text
// index over the site's site spaces as its audience sees them (no visitor claims: pages and site
// spaces behind a condition are left out, so are hidden pages and site spaces), and of those only
// the spaces the caller may read. Members who may read the site (read and up, or a grant on it).

type P = Record<string, string>;

/** The audience's view of the site (published or not) and the caller's readable spaces in it. */
function audienceView(tx: ReadTx, caller: Caller, path: P, action: string) {
  const { org, site } = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, action);
  const access = contentAccess(tx, org.id, caller);
  const view = siteView(tx, siteRef(org, site), { claims: {}, signed: false });
  const readable = (e: SpaceEntry) => access.space(e.space) !== null;
  return { view, readable };
}

type Scope =
  | { mode: 'default'; currentSiteSpace?: string; restrictTo?: 'currentSiteSpace' | 'otherSiteSpaces' }
  | { mode: 'specific'; siteSpaceIds: string[] }
  | { mode: 'all' };

/** The body's scope, new form or deprecated (`mode: current` is `default` from a site space). */
function scopeOf(body: any): Scope {
  if (body.scope) return body.scope as Scope;
  if (body.mode === 'current') return { mode: 'default', currentSiteSpace: String(body.siteSpaceId) };
  if (Array.isArray(body.siteSpaceIds)) return { mode: 'specific', siteSpaceIds: body.siteSpaceIds.map(String) };
  return { mode: 'all' };
}

/** Which of the view's site spaces a scope searches. */
function inScope(view: SiteView, scope: Scope, field: string): (e: SpaceEntry) => boolean {
  // Ids were checked (checkIds); one the audience cannot reach (hidden, behind a condition) finds nothing.
  const known = (id: string, _f: string) => id;
  if (scope.mode === 'all') {
    const listed = new Set(listedSpaces(view));
    return (e) => listed.has(e);
  }
  if (scope.mode === 'specific') {
    const ids = new Set(scope.siteSpaceIds.map((id, i) => known(id, `${field}.siteSpaceIds.${i}`)));
    return (e) => ids.has(e.ss.id);
  }
  const current = scope.currentSiteSpace === undefined ? undefined : known(scope.currentSiteSpace, `${field}.currentSiteSpace`);
  if (scope.restrictTo && current === undefined) throw invalid(`${field}.restrictTo: needs currentSiteSpace`);
  // Each section's default site space (the site's, for a site without sections), and the current one.
  const defaults = (e: SpaceEntry) => e.ss.default && e.listed;
  if (scope.restrictTo === 'currentSiteSpace') return (e) => e.ss.id === current;
  if (scope.restrictTo === 'otherSiteSpaces') return (e) => defaults(e) && e.ss.id !== current;
  return (e) => defaults(e) || e.ss.id === current;
}

/** The site spaces' ids of a request that are not the site's: 400 naming the first. */
function checkIds(tx: ReadTx, siteId: string, scope: Scope, field: string) {
  const ids = scope.mode === 'specific' ? scope.siteSpaceIds.map((id, i) => [id, `${field}.siteSpaceIds.${i}`]) : [];
  if (scope.mode === 'default' && scope.currentSiteSpace !== undefined) ids.push([scope.currentSiteSpace, `${field}.currentSiteSpace`]);
  for (const [id, f] of ids) {
    const ss = tx.get(SiteSpaces, id!);
    if (!ss || ss.site !== siteId) throw invalid(`${f}: ${id} is not a site space of site ${siteId}`);
  }
}

/** A page found, as the contract's SearchPageResult (an API operation's page: its method and path as its one section). */
function presentPage(ctx: Context, entry: SpaceEntry, p: SiteSearchPage, rank: number) {
  if (p.hit) return presentHit(ctx, entry.space, p.hit);
  const app = `${ctx.baseUrl}/o/${entry.space.organization}/s/${entry.space.id}/${p.page.path}`;
  return {
    id: p.page.node.id,
    title: p.op!.title,
    description: p.op!.snippet,
    path: p.page.path,
    score: 0,
    rank,
    sections: [{ id: `${p.page.node.id}#operation`, title: p.op!.section, path: p.page.path, score: 0, body: p.op!.snippet, urls: { app } }],
    ancestors: p.page.ancestors.map((a) => ({ id: a.id, title: a.title })),
    urls: { app },
  };
}

/** POST /orgs/{organizationId}/sites/{siteId}/search {query, scope}: the site's search, as the caller may read it. */
export const searchSiteContent = defineOperation('searchSiteContent', async ({ ctx, caller, path, query, body }) => {
  const b = (body ?? {}) as Record<string, any>;
  const q = requireQuery(b.query);
  paginate([], query); // a bad limit or cursor is a 400 before any work
  const scope = scopeOf(b);
  const field = b.scope ? 'scope' : 'body';
  const { view, only } = await ctx.store.read((tx) => {
    const { view, readable } = audienceView(tx, caller, path, 'searching a site');
    checkIds(tx, view.site.id, scope, field);
    const within = inScope(view, scope, field);
    return { view, only: (e: SpaceEntry) => within(e) && readable(e) };
  });
  const groups = await searchSiteView(ctx, view, q, only);
  // API operations (not in the text index) rank after every page the index found.
  let next = groups.reduce((n, g) => Math.max(n, ...g.pages.map((p) => p.hit?.rank ?? 0)), 0);
  return {
    status: 200,
    body: paginate(groups, query, (g) => ({
      type: 'space' as const,
      id: g.entry.space.id,
      title: g.entry.space.title,
      score: g.score,
      pages: g.pages.map((p) => presentPage(ctx, g.entry, p, p.hit ? p.hit.rank : ++next)),
    })),
  };
});

/** POST .../search/prewarm: the site's spaces' indexes brought to their current revisions (204). */
export const prewarmSiteSearch = defineOperation('prewarmSiteSearch', async ({ ctx, caller, path }) => {
  const { org, spaces } = await ctx.store.read((tx) => {
    const { view, readable } = audienceView(tx, caller, path, 'warming the search of a site');
    return {
      org: view.org.id,
      spaces: [
        ...new Set(
          view.sections
            .flatMap((s) => s.spaces)
            .filter(readable)
            .map((e) => e.space),
        ),
      ],
    };
  });
  await warmSpaces(ctx, org, spaces);
  return { status: 204 };
});

/** A flat rison object, `(name:value,...)`: values are words, numbers, `!t`/`!f` or '-quoted strings. 400 otherwise. */
export function parseRisonClaims(raw: string): Record<string, string> {
  const bad = () => invalid(`claims: ${JSON.stringify(raw.slice(0, 80))} is not a rison object of claims, like (plan:pro,beta:!t)`);
  const s = raw.trim();
  if (s.length > 2000) throw invalid('claims: at most 2000 characters');
  if (!s.startsWith('(') || !s.endsWith(')')) throw bad();
  const out: Record<string, string> = {};
  let i = 1;
  const word = () => {
    if (s[i] === "'") {
      let v = '';
      for (i++; i < s.length - 1; i++) {
        if (s[i] === '!') v += s[++i];
        else if (s[i] === "'") return (i++, v);
        else v += s[i];
      }
      throw bad();
    }
    const m = /^[^,:()'!\s]+/.exec(s.slice(i));
    if (!m) throw bad();
    i += m[0].length;
    return m[0];
  };
  while (i < s.length - 1) {
    const k = word();
    if (s[i++] !== ':') throw bad();
    let v: string;
    if (s[i] === '!' && (s[i + 1] === 't' || s[i + 1] === 'f')) (v = s[i + 1] === 't' ? 'true' : 'false'), (i += 2);
    else v = word();
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') throw bad();
    out[k] = v;
    if (s[i] === ',') i++;
    else if (i !== s.length - 1) throw bad();
  }
  return out;
}

/**
 * GET .../publishing/preview: where a member sees the site before it is live. `draft` (default
 * true): the site's page in the app, its structure as it stands, draft site spaces and sections
 * marked (a site space given: its space's page, the content it would publish). `draft=false`: the
 * published address (of the site space given), with the claims as the visitor's unsigned claims;
 * 400 for a site that is not published. `target`: a page of the site (under its published address).
 */
export const getSitePublishingPreviewById = defineOperation('getSitePublishingPreviewById', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    const { org, site } = siteOf(tx, caller, path.organizationId!, path.siteId!, SITE_READ, 'previewing a site');
    const draft = query.draft ?? true;
    const claims = query.claims === undefined ? {} : parseRisonClaims(String(query.claims));
    let entry: { ss: string; space: string; url: string } | undefined;
    if (query.siteSpace !== undefined) {
      const ss = tx.get(SiteSpaces, String(query.siteSpace));
      if (!ss || ss.site !== site.id) throw invalid(`siteSpace: ${query.siteSpace} is not a site space of site ${site.id}`);
      const view = siteView(tx, siteRef(org, site), { claims: {}, signed: false });
      const at = view.sections.flatMap((s) => s.spaces).find((e) => e.ss.id === ss.id);
      entry = { ss: ss.id, space: ss.space, url: at ? `${ctx.baseUrl}${at.url}` : '' };
    }
    const published = siteAddress(ctx, org, site);
    let target: string | undefined;
    if (query.target !== undefined) {
      const t = parseUrl(String(query.target));
      const under = (base: string) => t && (t.href === base || t.href.startsWith(`${base}/`) || t.href.startsWith(`${base}?`));
      if (!t || t.username || t.password || !under(published)) throw invalid(`target: must be an address under the site's published address ${published}`);
      target = `${t.origin}${t.pathname}`;
    }
    if (draft && target === undefined) {
      const url = entry ? `${ctx.baseUrl}/o/${org.id}/s/${entry.space}` : `${ctx.baseUrl}/o/${org.id}/sites/${site.id}`;
      return { status: 200, body: { url } };
    }
    if (!site.published) throw invalid(`site ${site.id} is not published: only its draft can be previewed (draft=true, no target)`);
    if (entry && !entry.url) throw invalid(`siteSpace: ${entry.ss} is not served by the published site (hidden, behind a condition or its space deleted)`);
    const url = new URL(target ?? entry?.url ?? published);
    for (const [k, v] of Object.entries(claims)) url.searchParams.set(`visitor.${k}`, v);
    return { status: 200, body: { url: url.toString() } };
  }),
);
