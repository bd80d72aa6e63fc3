import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendBody } from './compress.js';
import { ensureDownloadSecret, hasDownloadSecret } from '../../src/content/downloads.js';
import type { Context } from '../../src/kernel/context.js';
import { pageSource } from '../../src/published/content.js';
import { llmsFull, llmsIndex, robots, sitemap } from '../../src/published/machine.js';
import { listedPages, openSite, siteSegments } from '../../src/urls/site/open.js';
import type { ReadTx } from '../../src/store/port.js';
import { deriveMissingNavs, FULL_TREE, navRowsMissing, pageAt } from '../../src/urls/site/page-nav.js';
import { markdownOf } from '../../src/content/revisions.js';
import { apisToLoad, firstPage, firstUnder, movedFrom, neighbours, pageVisible, spacePages } from '../../src/urls/site/pages.js';
import { inlineSpec, loadApis, REFERENCE_LINE } from '../../src/urls/site/api-load.js';
import { blockOrigins, inlinePart, renderWithOperations, resolveBlocks } from '../../src/published/api/inline.js';
import { operationBody, partBody, rootBody, tagBody } from '../../src/published/api/render.js';
import { API_CSS } from '../../src/published/api/css.js';
import { publishedMarkdown } from '../../src/published/content.js';
import { answered, bodyKey, cachedBody, cachedPage, keepAnswer, keepBody, keepPage, renderStats, serial } from '../../src/published/render/cache.js';
import { esc } from '../../src/published/render/html.js';
import { pageActions } from '../../src/published/render/actions.js';
import { frame } from '../../src/published/render/layout.js';
import { codeThemesOf } from '../../src/published/render/highlight.js';
import { renderMarkdown } from '../../src/published/render/markdown.js';
import { SITE_JS, SITE_JS_HASH, SITE_JS_VERSION } from '../../src/published/render/script.js';
import { notFoundMain, pageMain, pageUrl, sidebar } from '../../src/published/render/page.js';
import { searchPage, searchSite } from '../../src/published/search.js';
import { siteRedirectFor } from '../../src/sites/redirect-operations.js';
import { findSite, listedSpaces, locate, mayEnter, settingsOf, siteView, type NavNode, type SiteView, type SpaceEntry } from '../../src/urls/site/site.js';
import type { PageIndexed } from '../../src/urls/site/pages.js';
import { cookieNames, parseCookies, visitorInput } from '../../src/urls/site/visitor.js';
import { beaconEvents, queueEvents } from '../../src/published/insights.js';
import { readJsonBody } from '../body.js';
import { Buckets } from '../rate-limit.js';
import { DocsError } from '../../src/kernel/errors.js';

// The published sites' HTTP routes, under `/sites/<org>/<basename>`:
//   /...page path            a content page (HTML), `.md` for its markdown
//   /~/search?q=             search results (HTML, a plain GET form); /~/search.json?q= (JSON)
//   /~/theme?set=dark&back=  the light/dark toggle (a cookie, then back)
//   /llms.txt /llms-full.txt /sitemap.xml /robots.txt
// Everything is read from the store at request time: no build step.

// Only the site's own script runs, matched by its hash (the <script> carries it as `integrity`);
// it may fetch from the site's own origin only ("Copy page" reads the page's `.md`).
const CSP = `default-src 'none'; script-src '${SITE_JS_HASH}'; img-src * data:; style-src 'unsafe-inline'; font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
const SCRIPT = Buffer.from(SITE_JS);
/** The CSP of an API operation page: its "Test it" may connect to the spec's server origins too. */
const cspWith = (origins: string[]) => CSP.replace("connect-src 'self'", `connect-src 'self' ${origins.join(' ')}`);

/** Loads the API reference specs of the site's listed spaces (before llms.txt, search, sitemap). */
async function preloadApis(ctx: Context, view: SiteView): Promise<void> {
  const missing = await ctx.store.read((tx) =>
    apisToLoad(
      tx,
      listedSpaces(view).map((e) => e.space),
    ),
  );
  if (missing.length) await loadApis(ctx, missing);
}

/**
 * A drawn page's headers, one frozen object per CSP (compress.ts builds the headers it sends from
 * a frozen object once per page and coding: a cached page's request builds none).
 */
const pageHeads = new Map<string, Readonly<Record<string, string>>>();
function pageHeaders(csp: string = CSP): Readonly<Record<string, string>> {
  let h = pageHeads.get(csp);
  if (!h) {
    if (pageHeads.size >= 256) pageHeads.clear();
    pageHeads.set(
      csp,
      (h = Object.freeze({ 'content-type': HTML, 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'content-security-policy': csp })),
    );
  }
  return h;
}

/** A drawn page (HTML, 200) with its CSP (an API operation's, or the site's). */
const sendPage = (res: ServerResponse, bytes: Buffer, csp?: string) => sendBody(res.req, res, 200, pageHeaders(csp), bytes);

/** An answer, compressed as the request accepts (server/published/compress.ts). */
function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string | string[]> = {}): Promise<number> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return sendBody(
    res.req,
    res,
    status,
    {
      'content-type': type,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      ...(type.startsWith('text/html') ? { 'content-security-policy': CSP } : {}),
      ...headers,
    },
    bytes,
  );
}

const HTML = 'text/html; charset=utf-8';

/** The 404 of an address that is not a site the visitor may see: the same page, whatever the reason. */
export const bareNotFound = (res: ServerResponse) =>
  send(
    res,
    404,
    HTML,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>Not found</h1><p>There is nothing at this address.</p></main></body></html>`,
  );

function redirect(res: ServerResponse, status: 301 | 302 | 303, to: string, cookies: string[] = []) {
  res.writeHead(status, { location: to, 'content-length': 0, ...(cookies.length ? { 'set-cookie': cookies } : {}) });
  res.end();
  return status;
}

/**
 * The theme a page is drawn in: the visitor's choice (the toggle's cookie), else their system's
 * preference (`auto`, resolved by CSS); a site that is not toggeable forces its default.
 */
function themeOf(view: SiteView, settings: Record<string, any>, cookies: Record<string, string>): 'light' | 'dark' | 'auto' {
  if (settings.themes?.toggeable === false) return settings.themes?.default === 'dark' ? 'dark' : 'light';
  const chosen = cookies[`docs_theme_${view.site.id}`];
  return chosen === 'light' || chosen === 'dark' ? chosen : 'auto';
}

/**
 * A visitor-auth site with a sign-in backend (its publishing auth's `fallbackURL`) sends a visitor
 * without a valid token there, with the path they asked for as `location` (the backend sends them
 * back with `?jwt_token=`); without one, the same 404 as for no site.
 * docs/manual/site-delivery.md#publishing-auth
 */
async function signInRedirect(
  ctx: Context,
  res: ServerResponse,
  orgKey: string,
  basename: string,
  rest: string[],
  search: string,
): Promise<number | undefined> {
  const ref = await ctx.store.read((tx) => findSite(tx, orgKey, basename));
  const backend = ref?.site.visibility === 'visitor-auth' ? ref.site.visitorAuth?.fallbackURL : undefined;
  if (!backend) return undefined;
  const to = new URL(backend);
  const q = new URLSearchParams(search);
  q.delete('jwt_token');
  const qs = q.toString();
  to.searchParams.set('location', `/${rest.map(encodeURIComponent).join('/')}${qs ? `?${qs}` : ''}`);
  // The cookie of a refused token goes: it would be refused again on the way back.
  return redirect(res, 302, to.toString(), [`${cookieNames(ref!.site.id).token}=; Path=${ref!.base}; HttpOnly; SameSite=Lax; Max-Age=0`]);
}

export async function servePublished(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (req.method === 'POST' && pathname.endsWith('/~/events')) return serveBeacon(ctx, req, res, pathname, search);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
    res.end();
    return 405;
  }
  // The same request as one answered since the last commit: the same page, without a read.
  const generation = ctx.store.generation?.();
  const hour = () => Math.floor(ctx.clock.now().getTime() / 3_600_000);
  const cookie = req.headers.cookie ?? '';
  const answerKey =
    generation === undefined || pathname.length + search.length + cookie.length > 2000
      ? undefined
      : `${req.headers.host ?? ''}\n${pathname}\n${search}\n${cookie}`;
  if (answerKey) {
    const hit = answered(answerKey, generation!, hour());
    if (hit) return sendPage(res, hit.bytes, hit.csp);
  }
  const segs = siteSegments(pathname);
  if (!segs) return bareNotFound(res);
  const [orgKey, basename, ...rest] = segs as [string, string, ...string[]];
  const query = new URLSearchParams(search);
  const cookies = parseCookies(req.headers.cookie);
  const given: { input?: ReturnType<typeof visitorInput> } = {};
  // The visitor's cookies are named after the site: read once the site is known.
  const opened = await openSite(ctx, orgKey, basename, (siteId) => (given.input = visitorInput(query, cookies, siteId)), false);
  const input = given.input;
  if (!opened || !input) return (await signInRedirect(ctx, res, orgKey, basename, rest, search)) ?? bareNotFound(res);
  const { ref, visitor } = opened;
  if (!hasDownloadSecret(ctx)) await ensureDownloadSecret(ctx);
  /**
   * A page for a visitor who brought nothing of their own (no share key, token or claims) is the
   * same for the next identical request until something is committed: kept for it (cache.ts).
   */
  const sendAnswer = (bytes: Buffer, csp?: string) => {
    const anonymous = !input.token && !input.shareKey && !input.fromQuery && Object.keys(input.unsigned).length === 0;
    if (answerKey && anonymous && ctx.store.generation?.() === generation) keepAnswer(answerKey, generation!, hour(), bytes, csp);
    return sendPage(res, bytes, csp);
  };

  // A page: `.md` after its path asks for its markdown.
  let asMarkdown = false;
  const last = rest[rest.length - 1];
  if (rest[0] !== '~' && last?.endsWith('.md') && last.length > 3) {
    asMarkdown = true;
    rest[rest.length - 1] = last.slice(0, -3);
  }
  // A deeper level of an API operation's schema (`?part=`), loaded when it is opened.
  const part = (query.get('part') ?? '').slice(0, 2000) || undefined;
  // One read: may the visitor enter, the site as they see it, and the page the address leads to.
  // A space with an API reference whose spec version is not loaded yet: load it, read again.
  const enter = () =>
    ctx.store.read((tx) => {
      if (!mayEnter(tx, ref.site, visitor)) return undefined;
      const view = siteView(tx, ref, visitor);
      const special = rest[0] === '~' || (rest.length === 1 && SITE_FILES.has(rest[0]!));
      const at = special || input.fromQuery ? undefined : locate(view, rest);
      const missing = at?.kind === 'space' ? apisToLoad(tx, [at.entry.space]) : [];
      if (missing.length) return { view, at, missing };
      const page =
        at?.kind === 'space'
          ? findPage(tx, ctx, view, at.entry, at.rest.join('/'), asMarkdown, cookies, part ? `${pathname}?part=${part}` : pathname)
          : undefined;
      return { view, at, page, missing };
    });
  let entered = await enter();
  if (entered?.missing.length) {
    await loadApis(ctx, entered.missing);
    entered = await enter();
  }
  if (!entered) return (await signInRedirect(ctx, res, orgKey, basename, rest, search)) ?? bareNotFound(res);
  const { view } = entered;

  // Keys and claims given in the query go into cookies for the site's path, and the address
  // loses them (a share key must not stay in the address bar, history or Referer).
  if (input.fromQuery) {
    const names = cookieNames(ref.site.id);
    const attrs = `Path=${ref.base}; HttpOnly; SameSite=Lax`;
    const set: string[] = [];
    if (visitor.shareKey && query.has('share')) set.push(`${names.share}=${encodeURIComponent(visitor.shareKey)}; ${attrs}; Max-Age=2592000`);
    if (input.token && query.has('jwt_token')) set.push(`${names.token}=${encodeURIComponent(input.token)}; ${attrs}; Max-Age=3600`);
    if (Object.keys(input.unsigned).length) set.push(`${names.unsigned}=${Buffer.from(JSON.stringify(input.unsigned)).toString('base64url')}; ${attrs}`);
    for (const k of [...query.keys()]) if (k === 'share' || k === 'jwt_token' || k.startsWith('visitor.')) query.delete(k);
    const q = query.toString();
    return redirect(res, 302, pathname + (q ? `?${q}` : ''), set);
  }

  const baseSettings = settingsOf(view);
  const notFound = async (entry?: SpaceEntry) => {
    // The site's redirects, before the 404 (docs/manual/sites.md#redirects).
    const moved = await ctx.store.read((tx) => siteRedirectFor(tx, ctx, ref, rest, search));
    if (moved) return redirect(res, moved.status, moved.to);
    const settings = settingsOf(view, entry);
    const side = entry ? await ctx.store.read((tx) => sidebar(spacePages(tx, entry.space), entry, undefined, visitor)) : undefined;
    return send(
      res,
      404,
      HTML,
      frame({
        view,
        entry,
        settings,
        theme: themeOf(view, settings, cookies),
        title: 'Page not found',
        here: pathname,
        main: notFoundMain(view.base),
        sidebar: side,
        ref: (to) => contentRef(view, to),
        noindex: true,
      }),
    );
  };

  // Site-wide routes.
  if (rest[0] === '~') {
    const what = rest.slice(1).join('/');
    if (what === 'site.js') {
      // The same bytes for every site; the URL carries the script's version, so it keeps a year.
      const current = query.get('v') === SITE_JS_VERSION;
      return send(res, 200, 'text/javascript; charset=utf-8', SCRIPT, { 'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache' });
    }
    // A custom font's face (styling.font, docs/manual/site-delivery.md#on-a-published-site): of the site's organization only.
    const font = /^fonts\/([^/]+)\/([^/]+)$/.exec(what);
    if (font) {
      const { fontFile } = await import('../../src/sites/font-operations.js');
      const found = await fontFile(ctx, font[1]!, font[2]!, ref.site.organization);
      if (!found) return notFound();
      return send(res, 200, found.type, found.bytes, { 'cache-control': 'public, max-age=3600' });
    }
    if (what === 'theme') {
      const set = query.get('set');
      const back = query.get('back') ?? '';
      const to = back.startsWith(`${ref.base}`) && !back.startsWith('//') ? back : ref.base;
      const cookie = set === 'light' || set === 'dark' ? [`docs_theme_${ref.site.id}=${set}; Path=${ref.base}; SameSite=Lax; Max-Age=31536000`] : [];
      return redirect(res, 303, to, cookie);
    }
    if (what === 'search' || what === 'search.json') {
      const q = (query.get('q') ?? '').slice(0, 200);
      await preloadApis(ctx, view);
      const groups = await searchSite(ctx, view, q);
      if (what === 'search.json') return send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ query: q, groups }));
      const theme = themeOf(view, baseSettings, cookies);
      return send(
        res,
        200,
        HTML,
        frame({
          view,
          settings: baseSettings,
          theme,
          title: q ? `Search: ${q}` : 'Search',
          here: `${pathname}?${query}`,
          main: searchPage(q, groups),
          ref: (to) => contentRef(view, to),
          noindex: true,
        }),
      );
    }
    return notFound();
  }
  if (rest.length === 1) {
    const robotsText = {
      'robots.txt': () => robots(ctx, view),
      'sitemap.xml': () => ctx.store.read((tx) => sitemap(tx, ctx, view)),
      'llms.txt': () => ctx.store.read((tx) => llmsIndex(tx, ctx, view)),
      'llms-full.txt': () => ctx.store.read((tx) => llmsFull(tx, ctx, view)),
    }[rest[0]!];
    if (robotsText) {
      if (rest[0] !== 'robots.txt') await preloadApis(ctx, view);
      const type =
        rest[0] === 'sitemap.xml'
          ? 'application/xml; charset=utf-8'
          : rest[0]!.startsWith('llms')
            ? 'text/markdown; charset=utf-8'
            : 'text/plain; charset=utf-8';
      return send(res, 200, type, await robotsText());
    }
  }

  const at = entered.at!;
  if (at.kind === 'redirect') return redirect(res, 302, at.to);
  if (at.kind === 'none') return notFound();
  const { entry } = at;
  const found = entered.page;
  // `<site>/mcp` opened in a browser (no page of that path): what the address is for. MCP clients
  // (POST, or GET for an event stream) never get here (server/published.ts).
  if (!found && rest.length === 1 && rest[0] === 'mcp') {
    const settings = settingsOf(view, entry);
    return send(
      res,
      200,
      HTML,
      frame({
        view,
        entry,
        settings,
        theme: themeOf(view, settings, cookies),
        title: 'MCP server',
        here: pathname,
        main: mcpMain(`${ctx.baseUrl}${view.base}/mcp`),
        ref: (to) => contentRef(view, to),
        noindex: true,
      }),
    );
  }
  if (!found) return notFound(entry);
  if ('empty' in found) {
    // A space with no page yet: its address answers, saying so.
    const settings = settingsOf(view, entry);
    return send(
      res,
      200,
      HTML,
      frame({
        view,
        entry,
        settings,
        theme: themeOf(view, settings, cookies),
        title: entry.space.title,
        here: pathname,
        main: `<h1>${esc(entry.space.title)}</h1><p>No pages yet.</p>`,
        ref: (to) => contentRef(view, to),
      }),
    );
  }
  if ('moved' in found) return redirect(res, found.temporary ? 302 : 301, found.moved + (asMarkdown && !found.temporary ? '.md' : ''));
  if ('markdown' in found) return send(res, 200, 'text/markdown; charset=utf-8', found.markdown as string);
  if ('cached' in found) return sendAnswer(found.cached as Buffer, found.csp);
  const { ix, page } = found;
  const api = ix.api?.get(page.node.id);
  const key = bodyKey(
    [
      entry.space.id,
      ix.rev.id,
      page.node.id,
      page.node.content,
      entry.url,
      found.source.links.externalBlank,
      Math.floor(ctx.clock.now().getTime() / 3_600_000),
      JSON.stringify(codeThemesOf(found.settings.styling) ?? null),
    ],
    ix.conditional ? visitor.claims : undefined,
  );
  // Inline operation blocks are drawn on ordinary pages (a generated API page has none).
  const blocks = api ? [] : found.blocks;
  const bodyAt = api ? `${key}|${api.version}|${api?.kind === 'op' && part ? part : ''}` : blocks.length ? `${key}|${ix.apiVersions ?? ''}|${part ?? ''}` : key;
  let body = cachedBody(bodyAt);
  if (!body) {
    renderStats.rendered++;
    const codeThemes = codeThemesOf(found.settings.styling);
    const here = pageUrl(entry, page.path);
    if (api?.kind === 'op' && part) {
      const got = await partBody(api, part, codeThemes);
      if (!got) return notFound(entry);
      body = got;
    } else if (blocks.length && part) {
      // A deeper level of an inline operation's schema (`?part=o<block>/...`).
      const got = await inlinePart(blocks, part, codeThemes);
      if (!got) return notFound(entry);
      body = got;
    } else if (blocks.length) {
      // A page with `openapi-operation` blocks: each drawn in place (nothing for a missing one).
      const got = await renderWithOperations(found.source.markdown, { ...found.source.links, codeThemes }, blocks, false);
      body = { html: got.html, headings: got.headings };
    } else if (api?.kind === 'op') body = await operationBody(api, codeThemes);
    else if (api?.kind === 'tag') body = await tagBody(api, here, codeThemes);
    else {
      body = await renderMarkdown(api ? found.source.markdown.replace(REFERENCE_LINE, '') : found.source.markdown, { ...found.source.links, codeThemes });
      if (api) {
        // The reference page: its own text, then the spec's overview (tag addresses as in the tree).
        const slugs = new Map(page.node.pages.map((c) => [c.id.slice(page.node.id.length + 1), c.slug]));
        const more = await rootBody(api, here, codeThemes, slugs);
        body = { html: body.html + more.html, headings: [...body.headings, ...more.headings] };
      }
    }
    keepBody(bodyAt, body);
  }
  const { html, headings } = body;
  const here = pageUrl(entry, found.page.path);
  const actions = pageActions(found.settings, {
    markdown: `${here}.md`,
    mcp: `${view.base}/mcp`,
    app: `/o/${encodeURIComponent(entry.space.organization)}/s/${encodeURIComponent(entry.space.id)}/${found.page.path}`,
  });
  const main = pageMain(entry, found.page, html, found.prev, found.next, found.settings.pagination?.enabled !== false, actions);
  const noindex = view.site.visibility !== 'public' || !!found.page.node.noIndex || ((api?.kind === 'op' || blocks.length > 0) && !!part);
  // Meta links: a URL as given; a page of this space by its address in the site (one of another
  // space, or a page not published here, draws nothing).
  const metaUrl = (t: { kind: string; url?: string; page?: string; space?: string }) =>
    t.kind === 'url' ? t.url : t.kind === 'page' && !t.space ? (ix.byId.has(t.page!) ? pageUrl(entry, ix.byId.get(t.page!)!.path) : undefined) : undefined;
  const links = found.page.node.metaLinks;
  const canonical = links?.canonical && metaUrl(links.canonical);
  const alternates = (links?.alternates ?? []).map(metaUrl).filter((u): u is string => !!u);
  const bytes = Buffer.from(
    frame({
      view,
      entry,
      settings: found.settings,
      theme: found.theme,
      title: found.page.node.title,
      description: found.page.node.description ?? (api?.kind === 'op' ? api.op!.summary : undefined),
      here: pathname,
      sidebar: found.side,
      main,
      outline: headings,
      ref: (to) => found.refs.get(to) ?? contentRef(view, to),
      noindex,
      ...(canonical ? { canonical } : {}),
      ...(alternates.length ? { alternates } : {}),
      ...(api || blocks.some((b) => 'op' in b) ? { css: API_CSS } : {}),
    }),
  );
  keepPage(found.sig, bytes, found.csp);
  return sendAnswer(bytes, found.csp);
}

/** What a browser shows at `<site>/mcp`: the address to give an MCP client. */
const mcpMain = (url: string) =>
  `<h1>MCP server</h1><p>This site answers the Model Context Protocol (Streamable HTTP) at this address, with two read-only tools: search the site and read a page as Markdown. Give it to your MCP client:</p><pre tabindex="0"><code>${esc(JSON.stringify({ mcpServers: { docs: { url } } }, null, 2))}</code></pre>`;

const SITE_FILES = new Set(['robots.txt', 'sitemap.xml', 'llms.txt', 'llms-full.txt']);

/** Markdown that may hold a link (to another page: then the whole index resolves it), or an include. */
const MAY_LINK = /\]\(|\]\s*:|<[a-z]|\{%/i;

/** What the address of a page in a site space leads to, read in the request's one read. */
function findPage(
  tx: ReadTx,
  ctx: Context,
  view: SiteView,
  entry: SpaceEntry,
  path: string,
  asMarkdown: boolean,
  cookies: Record<string, string>,
  pathname: string,
) {
  const visitor = view.visitor;
  // A page of a big space is read from its ancestors' navigation rows (page-nav.ts) when that is
  // all it needs: a plain document page whose body names no other page.
  const partial = pageAt(tx, entry.space, path, visitor);
  if (partial === 'pending') return undefined; // rows being loaded: the read runs again
  const own = partial?.byPath.get(path);
  const whole = own?.node.type !== 'document' || MAY_LINK.test(markdownOf(tx, entry.space.id, own.node));
  if (partial && whole && tx.settled?.() === false) return undefined;
  const ix = partial && !whole ? partial : spacePages(tx, entry.space);
  // A big tree written before navigation rows: they are derived, for the next first render.
  if (!partial && ix.byId.size > FULL_TREE && navRowsMissing(tx, entry.space)) deriveMissingNavs(ctx, entry.space);
  let page = path ? ix.byPath.get(path) : firstPage(ix, visitor);
  if (page && !pageVisible(ix, page, visitor)) page = undefined;
  if (!page && !path && !ix.docs.length) return { empty: true as const };
  if (!page) {
    const moved = path ? movedFrom(tx, entry.space, ix, path) : undefined;
    return moved && pageVisible(ix, moved, visitor) ? { moved: pageUrl(entry, moved.path) } : undefined;
  }
  if (page.node.type === 'group') {
    const first = firstUnder(ix, page, visitor);
    return first ? { moved: pageUrl(entry, first.path), temporary: true } : undefined;
  }
  if (page.node.type === 'link') {
    const t = page.node.target;
    const to = t?.kind === 'url' ? t.url : t?.kind === 'page' && ix.byId.get(t.page) ? pageUrl(entry, ix.byId.get(t.page)!.path) : page.node.href;
    return to ? { moved: to, temporary: true } : undefined;
  }
  if (asMarkdown) return { markdown: `# ${page.node.title}\n\n${publishedMarkdown(tx, entry.space, ix, page.node)}` };
  const settings = settingsOf(view, entry);
  const theme = themeOf(view, settings, cookies);
  const sig = signature(view, ix, page.node.id, theme, pathname, Math.floor(ctx.clock.now().getTime() / 3_600_000));
  // An operation's page may send its "Test it" request to the spec's servers, and only there.
  const api = ix.api?.get(page.node.id);
  const csp = api?.kind === 'op' && api.spec.origins.length ? cspWith(api.spec.origins) : undefined;
  const hit = cachedPage(sig);
  if (hit) return { cached: hit.bytes, csp: hit.csp };
  const source = pageSource(tx, ctx, entry, ix, page, visitor, settings.externalLinks?.target === 'blank');
  // Inline operation blocks (api/inline.ts): their "Test it" may connect to their specs' servers.
  const blocks = resolveBlocks(source.markdown, (slug) => inlineSpec(tx, entry.space.organization, slug));
  const origins = blockOrigins(blocks);
  return {
    csp: csp ?? (origins.length ? cspWith(origins) : undefined),
    blocks,
    ix,
    page,
    settings,
    theme,
    sig,
    refs: pageRefs(tx, view, entry, settings),
    source,
    side: sidebar(ix, entry, page, visitor),
    ...neighbours(ix, page, visitor),
  };
}

/** A customization link target (ContentRef): a URL, or a page of one of the site's spaces. */
export function contentRef(view: SiteView, to: unknown): string | undefined {
  const t = to as any;
  if (!t || typeof t !== 'object') return undefined;
  if (t.kind === 'url' && typeof t.url === 'string') return t.url;
  if (t.kind === 'space' && typeof t.space === 'string') return view.sections.flatMap((s) => s.spaces).find((e) => e.space.id === t.space)?.url;
  return undefined;
}

export { listedPages };

/** The signature of a page as drawn for this request (see render/cache.ts). */
function signature(view: SiteView, ix: PageIndexed, page: string, theme: string, pathname: string, hour: number): string {
  const parts: (string | number)[] = [serial(view.org), serial(view.site)];
  // Groups and external links (sections are below): a link changed, added or removed redraws the page.
  const nav = (nodes: NavNode[]) =>
    nodes.forEach((n) => (n.kind === 'group' ? (parts.push(serial(n.row)), nav(n.children)) : n.kind === 'link' ? parts.push(serial(n.row)) : undefined));
  nav(view.nav);
  for (const s of view.sections) {
    parts.push(s.row ? serial(s.row) : 0);
    for (const e of s.spaces) parts.push(serial(e.ss), serial(e.space));
  }
  parts.push(serial(ix.rev), page, theme, pathname, hour, ix.apiVersions ?? '');
  if (ix.conditional) parts.push(JSON.stringify(view.visitor.claims));
  return parts.join('|');
}

/**
 * Header and footer links to pages (`{kind: 'page', page, space?}`): to the page's address on
 * this site, in its space's site space (the current one first), when the visitor may see it.
 */
function pageRefs(tx: ReadTx, view: SiteView, current: SpaceEntry, settings: Record<string, any>): Map<unknown, string> {
  const out = new Map<unknown, string>();
  const items: any[] = [
    ...(Array.isArray(settings.header?.links) ? settings.header.links.flatMap((l: any) => [l, ...(Array.isArray(l?.links) ? l.links : [])]) : []),
    ...(Array.isArray(settings.footer?.groups) ? settings.footer.groups.flatMap((g: any) => (Array.isArray(g?.links) ? g.links : [])) : []),
  ];
  for (const item of items) {
    const to = item?.to;
    if (to?.kind !== 'page' || typeof to.page !== 'string') continue;
    const spaceId = typeof to.space === 'string' ? to.space : current.space.id;
    const entry = current.space.id === spaceId ? current : view.sections.flatMap((s) => s.spaces).find((e) => e.space.id === spaceId);
    if (!entry) continue;
    const ix = spacePages(tx, entry.space);
    const l = ix.byId.get(to.page);
    if (l && l.node.type === 'document' && pageVisible(ix, l, view.visitor)) out.set(to, pageUrl(entry, l.path));
  }
  return out;
}

/** A beacon post is small: a handful of events. */
const BEACON_BYTES = 32 * 1024;
/**
 * Posts per client address: a page view posts a few times (view, search, feedback, clicks; up to
 * MAX_BEACON_EVENTS each), so 10 a second sustained with a burst of 30 never limits a person,
 * nor a handful behind one NAT; a script posting as fast as it can gets 429 (nothing stored).
 */
export const BEACON_POSTS_PER_SECOND = 10;
export const BEACON_POST_BURST = 30;
const beaconPosts = new Buckets(BEACON_POSTS_PER_SECOND, BEACON_POST_BURST);

/**
 * `POST <site>/~/events`: the site's script reporting what happened on a page
 * (docs/manual/insights.md#the-published-site-records-its-own-events). 204 once stored; 204 and
 * nothing stored for a browser that asks not to be tracked (`DNT: 1`, `Sec-GPC: 1`); 403 from a
 * page of another origin; 404 for a site the visitor may not see; 400 naming the field.
 */
async function serveBeacon(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  const empty = (status: number, message?: string) => {
    const body = message ? Buffer.from(JSON.stringify({ error: { code: status, message } })) : undefined;
    res.writeHead(status, { 'content-length': body?.length ?? 0, ...(body ? { 'content-type': 'application/json' } : {}), 'cache-control': 'no-store' });
    res.end(body);
    return status;
  };
  if (req.headers.dnt === '1' || req.headers['sec-gpc'] === '1') {
    req.resume();
    return empty(204);
  }
  // Only the site's own pages post here (a browser always sends Origin with a POST).
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== req.headers.host) {
      req.resume();
      return empty(403, `origin ${origin} may not record events of this site`);
    }
  }
  // A flood of valid posts from one address would only grow the site's segments: limited.
  const allowed = beaconPosts.take(req.socket.remoteAddress ?? '');
  if (!allowed.ok) {
    req.resume();
    const seconds = Math.max(1, Math.ceil(allowed.retryAfterMs / 1000));
    res.setHeader('retry-after', String(seconds));
    return empty(429, `too many event posts from this address; retry in ${seconds} s`);
  }
  const segs = siteSegments(pathname.slice(0, -'/~/events'.length));
  if (segs?.length !== 2) return bareNotFound(res);
  const cookies = parseCookies(req.headers.cookie);
  const opened = await openSite(ctx, segs[0]!, segs[1]!, (siteId) => visitorInput(new URLSearchParams(search), cookies, siteId));
  if (!opened) {
    req.resume();
    return bareNotFound(res);
  }
  try {
    const body = await readJsonBody(req, BEACON_BYTES);
    const now = ctx.clock.now().getTime();
    const ua = String(req.headers['user-agent'] ?? '').slice(0, 512);
    const language =
      String(req.headers['accept-language'] ?? '')
        .split(',')[0]
        ?.trim()
        .slice(0, 35) || null;
    const events = await ctx.store.read((tx) =>
      beaconEvents(tx, ctx, { ref: opened.ref, visitor: opened.visitor, body, address: req.socket.remoteAddress ?? '', userAgent: ua, language }, now),
    );
    await queueEvents(ctx, opened.ref.site.id, events);
    return empty(204);
  } catch (err) {
    if (err instanceof DocsError && (err.kind === 'invalid' || err.kind === 'too_large')) return empty(err.kind === 'invalid' ? 400 : 413, err.message);
    throw err;
  }
}
