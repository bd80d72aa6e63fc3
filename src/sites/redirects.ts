import type { Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { OrganizationRecord } from '../organizations/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { RedirectDestination, SiteRecord, SiteRedirectRecord } from './model.js';
import { siteAddress } from './present.js';
import { SiteRedirects, SiteSections, SiteSpaces } from './tables.js';

// Site redirects: a path under a site's address that is not a page sends the visitor elsewhere
// (docs/manual/sites.md#redirects). The rules live here; the operations (redirect-operations.ts)
// add what needs the content area (a page's path), and the published site asks `matchRedirect`
// before it answers 404.

/** The longest chain of redirects a visitor may be sent through (A → B → ... ), refused beyond. */
export const MAX_CHAIN = 10;
export const SOURCE_MAX = 512;
// The 0.202.0 contract's SiteRedirectSourcePath: segments of unreserved characters, `+` or
// %-escapes, and an optional final `*` (a prefix) or `/*` (everything under a path).
const SOURCE = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * A source path as it is stored and matched: one leading slash, no empty segment, no trailing
 * slash, %-escapes of unreserved characters decoded and the others in upper case, no `.` or `..`
 * segment (a browser would have resolved them before asking). 400 naming `field` otherwise.
 */
export function normaliseSource(raw: string, field = 'source'): string {
  let s = String(raw).trim();
  if (!s.startsWith('/')) s = `/${s}`;
  s = s.replace(/\/{2,}/g, '/');
  if (s.length > 1 && s.endsWith('/')) s = s.slice(0, -1);
  s = s.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(c) ? c : `%${hex.toUpperCase()}`;
  });
  const segments = s.split('/').slice(1);
  if (segments.some((x) => x === '.' || x === '..')) throw invalid(`${field}: '.' and '..' segments are not allowed (${JSON.stringify(raw)})`);
  if (s.length > SOURCE_MAX) throw invalid(`${field}: at most ${SOURCE_MAX} characters`);
  if (!SOURCE.test(s)) {
    throw invalid(
      `${field}: must be a path like /old/page (letters, digits, - . _ ~ + or %-escapes; a final * or /* for a prefix), got ${JSON.stringify(raw)}`,
    );
  }
  return s;
}

/** An absolute http(s) URL with no credentials in it (never javascript:, data: or a relative address). */
export function checkExternalUrl(raw: string, field = 'destination.url'): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw invalid(`${field}: must be an absolute http or https URL, got ${JSON.stringify(raw)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid(`${field}: must be an http or https URL, not ${u.protocol}`);
  if (u.username || u.password) throw invalid(`${field}: must not carry a user name or password`);
  return u.toString();
}

/** The destination checked against the site: its section or site space must be the site's own. */
export function checkDestination(tx: ReadTx, site: SiteRecord, d: RedirectDestination): RedirectDestination {
  switch (d.kind) {
    case 'site-section': {
      const row = tx.get(SiteSections, d.siteSectionId);
      if (!row || row.site !== site.id) throw invalid(`destination.siteSectionId: no section ${d.siteSectionId} in site ${site.id}`);
      return { kind: d.kind, siteSectionId: d.siteSectionId };
    }
    case 'site-space':
    case 'site-page': {
      const row = tx.get(SiteSpaces, d.siteSpaceId);
      if (!row || row.site !== site.id) throw invalid(`destination.siteSpaceId: no site space ${d.siteSpaceId} in site ${site.id}`);
      return d.kind === 'site-space' ? { kind: d.kind, siteSpaceId: d.siteSpaceId } : { kind: d.kind, siteSpaceId: d.siteSpaceId, pageId: d.pageId };
    }
    case 'external':
      return { kind: 'external', url: checkExternalUrl(d.url) };
  }
  throw invalid(`destination.kind: must be site-section, site-space, site-page, path or external`);
}

/** A page's path in a space's current content ('' for none): given by the operations layer. */
export type PagePathOf = (spaceId: string, pageId: string) => string | undefined;

/**
 * Where a destination leads under the site's address (`/guides/setup`), or undefined for a
 * destination outside the site (an external URL not under the site's own address) or one that
 * no longer exists (its section, site space or page was removed).
 */
export function destinationPath(
  tx: ReadTx,
  ctx: Context,
  org: OrganizationRecord,
  site: SiteRecord,
  d: RedirectDestination,
  pagePath: PagePathOf,
): string | undefined {
  const sectionPath = (id: string | null): string | undefined => {
    if (id === null) return '';
    const row = tx.get(SiteSections, id);
    if (!row || row.site !== site.id) return undefined;
    return row.default ? '' : `/${row.path}`;
  };
  switch (d.kind) {
    case 'site-section':
      return sectionPath(d.siteSectionId) ?? undefined;
    case 'site-space':
    case 'site-page': {
      const ss = tx.get(SiteSpaces, d.siteSpaceId);
      if (!ss || ss.site !== site.id) return undefined;
      const prefix = sectionPath(ss.section);
      if (prefix === undefined) return undefined;
      const at = ss.default ? prefix : `${prefix}/${ss.path}`;
      if (d.kind === 'site-space') return at;
      const p = pagePath(ss.space, d.pageId);
      if (p === undefined) return undefined;
      return p ? `${at}/${p}` : at;
    }
    case 'external': {
      // An address under the site's own: a step inside the site, for the chain check.
      const base = siteAddress(ctx, org, site);
      if (d.url === base || d.url === `${base}/`) return '';
      return d.url.startsWith(`${base}/`) ? `/${d.url.slice(base.length + 1).split(/[?#]/)[0]}`.replace(/\/$/, '') : undefined;
    }
  }
}

/** The absolute URL a redirect sends to (with the wildcard's suffix when it is captured). */
export function targetUrl(
  tx: ReadTx,
  ctx: Context,
  org: OrganizationRecord,
  site: SiteRecord,
  r: SiteRedirectRecord,
  pagePath: PagePathOf,
  suffix = '',
): string | undefined {
  const tail = r.captureWildcard && suffix ? suffix : '';
  if (r.destination.kind === 'external') return r.destination.url.replace(/\/$/, '') + (tail ? `/${tail}` : '');
  const at = destinationPath(tx, ctx, org, site, r.destination, pagePath);
  if (at === undefined) return undefined;
  return `${siteAddress(ctx, org, site)}${at}${tail ? `/${tail}` : ''}`;
}

export const redirectsOf = (tx: ReadTx, site: string) => tx.find(SiteRedirects, 'site', site);

/**
 * The redirect a path under the site leads to, among `list`: the one whose source is the path,
 * else the wildcard with the longest prefix of it. `suffix` is what the wildcard matched.
 */
export function matchRedirect<R extends { source: string }>(list: readonly R[], path: string): { redirect: R; suffix: string } | undefined {
  let best: { redirect: R; suffix: string; len: number } | undefined;
  for (const r of list) {
    if (r.source === path) return { redirect: r, suffix: '' };
    if (!r.source.endsWith('*')) continue;
    const prefix = r.source.slice(0, -1);
    // `/old/*` covers `/old` itself and everything under it; `/old*` every path starting so.
    const under = prefix.endsWith('/') && path === prefix.slice(0, -1);
    if (!under && !path.startsWith(prefix)) continue;
    if (!best || prefix.length > best.len) best = { redirect: r, suffix: under ? '' : path.slice(prefix.length), len: prefix.length };
  }
  return best && { redirect: best.redirect, suffix: best.suffix };
}

/**
 * Refuses a set of redirects (the site's, with a change applied) in which a visitor could be
 * sent around a loop (A → B → A) or through more than MAX_CHAIN redirects: 400 naming
 * `destination` and the chain. Only chains through `changed` are walked (the others were
 * checked when they were made).
 */
export function checkChains(
  list: readonly SiteRedirectRecord[],
  changed: SiteRedirectRecord,
  pathOf: (r: SiteRedirectRecord) => string | undefined,
  field = 'destination',
): void {
  const same = list.filter((r) => r.draft === changed.draft && r.id !== changed.id).concat(changed);
  const targets = new Map(same.map((r) => [r.id, pathOf(r)]));
  const next = (r: SiteRedirectRecord): SiteRedirectRecord | undefined => {
    const to = targets.get(r.id);
    return to === undefined ? undefined : matchRedirect(same, to || '/')?.redirect;
  };
  const nexts = new Map(same.map((r) => [r.id, next(r)]));
  // From the changed one first, so that a loop is named from where it was closed.
  for (const start of [changed, ...same.filter((r) => r.id !== changed.id)]) {
    const chain = [start];
    let passes = start.id === changed.id;
    for (let cur = nexts.get(start.id); cur; cur = nexts.get(cur.id)) {
      if (cur.id === changed.id) passes = true;
      if (chain.includes(cur)) {
        if (!passes) break;
        throw invalid(`${field}: makes a redirect loop: ${[...chain, cur].map((r) => r.source).join(' → ')}`);
      }
      chain.push(cur);
      if (chain.length > MAX_CHAIN && passes) {
        throw invalid(`${field}: makes a chain of more than ${MAX_CHAIN} redirects: ${chain.map((r) => r.source).join(' → ')} → ...`);
      }
      if (chain.length > MAX_CHAIN + 1) break;
    }
  }
}

export interface RedirectInput {
  source: string;
  destination: RedirectDestination;
  draft?: boolean;
  captureWildcard?: boolean;
  permanent?: boolean;
}

export function redirectOf(tx: ReadTx, site: SiteRecord, id: string): SiteRedirectRecord {
  const r = tx.get(SiteRedirects, id);
  if (!r || r.site !== site.id) throw notFound(`redirect ${id} not found in site ${site.id}`);
  return r;
}

const taken = (tx: ReadTx, site: SiteRecord, source: string, draft: boolean, except?: string) =>
  redirectsOf(tx, site.id).find((r) => r.source === source && r.draft === draft && r.id !== except);

/** A new redirect, checked (the destination already resolved by the caller). */
export function createRedirect(tx: WriteTx, ctx: Context, site: SiteRecord, input: RedirectInput, pathOf: (r: SiteRedirectRecord) => string | undefined) {
  const source = normaliseSource(input.source);
  const draft = input.draft ?? false;
  if (taken(tx, site, source, draft)) throw invalid(`source: a ${draft ? 'draft ' : ''}redirect from ${source} already exists in this site`);
  const r: SiteRedirectRecord = {
    id: newId(),
    organization: site.organization,
    site: site.id,
    source,
    destination: checkDestination(tx, site, input.destination),
    draft,
    captureWildcard: input.captureWildcard ?? false,
    permanent: input.permanent ?? false,
    createdAt: ctx.clock.now().toISOString(),
  };
  checkChains([...redirectsOf(tx, site.id), r], r, pathOf);
  return tx.put(SiteRedirects, r);
}

export function updateRedirect(
  tx: WriteTx,
  ctx: Context,
  site: SiteRecord,
  id: string,
  body: Partial<RedirectInput>,
  pathOf: (r: SiteRedirectRecord) => string | undefined,
) {
  const r = redirectOf(tx, site, id);
  const next: SiteRedirectRecord = { ...r, updatedAt: ctx.clock.now().toISOString() };
  if (body.source !== undefined) next.source = normaliseSource(body.source);
  if (body.destination !== undefined) next.destination = checkDestination(tx, site, body.destination);
  if (body.draft !== undefined) next.draft = body.draft;
  if (body.captureWildcard !== undefined) next.captureWildcard = body.captureWildcard;
  if (body.permanent !== undefined) next.permanent = body.permanent;
  if (taken(tx, site, next.source, next.draft, r.id))
    throw invalid(`source: a ${next.draft ? 'draft ' : ''}redirect from ${next.source} already exists in this site`);
  checkChains([...redirectsOf(tx, site.id).filter((x) => x.id !== r.id), next], next, pathOf);
  return tx.put(SiteRedirects, next);
}

export function deleteRedirect(tx: WriteTx, site: SiteRecord, id: string): boolean {
  const r = tx.get(SiteRedirects, id);
  if (!r || r.site !== site.id) return false;
  return tx.delete(SiteRedirects, id);
}

/** An item as the request gives it: its destination may still be a space path (`resolve` turns it into a stored one). */
export type BulkItem =
  | { source: string; intent: 'publish' }
  | { source: string; intent?: 'live' | 'draft'; captureWildcard?: boolean; permanent?: boolean; destination: unknown };

export type BulkResult =
  | { status: 'created' | 'updated' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'deleted'; source: string; draft: boolean }
  | { status: 'error'; source: string; draft: boolean; error: string };

/**
 * Applies each item in order (bulkUpsertSiteRedirects): upsert by source and intent, delete on a
 * null destination, publish a draft. An item that breaks a rule is an `error` result naming why
 * and changes nothing; the others are applied.
 */
export function bulkUpsert(
  tx: WriteTx,
  ctx: Context,
  site: SiteRecord,
  items: readonly BulkItem[],
  resolve: (d: unknown) => RedirectDestination,
  pathOf: (r: SiteRedirectRecord) => string | undefined,
): BulkResult[] {
  const out: BulkResult[] = [];
  for (const [i, item] of items.entries()) {
    const draft = item.intent === 'draft';
    let source = item.source;
    try {
      source = normaliseSource(item.source, `redirects[${i}].source`);
      if (item.intent === 'publish') {
        const d = taken(tx, site, source, true);
        if (!d) throw invalid(`redirects[${i}]: no draft redirect from ${source} to publish`);
        const live = taken(tx, site, source, false);
        const next: SiteRedirectRecord = live
          ? { ...live, destination: d.destination, captureWildcard: d.captureWildcard, permanent: d.permanent, updatedAt: ctx.clock.now().toISOString() }
          : { ...d, draft: false, updatedAt: ctx.clock.now().toISOString() };
        checkChains([...redirectsOf(tx, site.id).filter((x) => x.id !== next.id && x.id !== d.id), next], next, pathOf, `redirects[${i}].source`);
        if (live) tx.delete(SiteRedirects, d.id);
        tx.put(SiteRedirects, next);
        out.push({ status: 'published', source, draft: false, id: next.id });
        continue;
      }
      const existing = taken(tx, site, source, draft);
      if (item.destination === null) {
        if (existing) tx.delete(SiteRedirects, existing.id);
        out.push({ status: 'deleted', source, draft });
        continue;
      }
      const destination = resolve(item.destination);
      const body = { source, destination, draft, captureWildcard: item.captureWildcard, permanent: item.permanent };
      if (existing) {
        const r = updateRedirect(tx, ctx, site, existing.id, body, pathOf);
        out.push({ status: 'updated', source, draft, id: r.id });
      } else {
        const r = createRedirect(tx, ctx, site, body, pathOf);
        out.push({ status: 'created', source, draft, id: r.id });
      }
    } catch (err: any) {
      if (err?.kind !== 'invalid' && err?.kind !== 'not_found') throw err;
      // The source as given when it could not be normalised, made to fit the contract's pattern.
      const shown = SOURCE.test(source) ? source : '/invalid';
      out.push({ status: 'error', source: shown, draft, error: String(err.message).replace(/^destination/, `redirects[${i}].destination`) });
    }
  }
  return out;
}

export function presentRedirect(r: SiteRedirectRecord) {
  return {
    object: 'site-redirect' as const,
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: r.createdAt,
    ...(r.updatedAt ? { updatedAt: r.updatedAt } : {}),
  };
}
