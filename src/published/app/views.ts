import { diffLines } from 'diff';
import type { Caller, Context } from '../../kernel/context.js';
import { DocsError } from '../../kernel/errors.js';
import { invoke } from '../../invoke.js';
import { attr, esc, safeUrl } from '../render/html.js';
import { makeResolver } from '../../content/link-refs.js';
import type { RenderOptions } from '../render/markdown.js';
import { operationRefs } from '../../documents/openapi-blocks.js';
import { renderWithOperations, resolveBlocks } from '../api/inline.js';
import type { InlineSpec } from '../../urls/site/api-load.js';
import { buildSpec } from '../../urls/site/api-spec.js';
import { API_CSS } from '../api/css.js';
import { appPage, list, section } from './page.js';

// One view per kind of `urls.app`. Every read goes through `invoke` as the signed-in member:
// what the API would refuse them (404, 403), the view refuses the same way.

type Call = (operationId: string, path: Record<string, string>, query?: Record<string, string>) => Promise<any>;

const caller =
  (ctx: Context, who: Caller): Call =>
  async (operationId, path, query = {}) => {
    const r = await invoke(ctx, operationId, { path, query }, who);
    if (r.status >= 400) throw (r as any).error ?? new DocsError('not_found', `${operationId}: ${r.status}`);
    return r.body;
  };

const enc = encodeURIComponent;

export async function appView(ctx: Context, who: Caller, segs: string[]): Promise<string> {
  const call = caller(ctx, who);
  if (segs.length === 0) {
    const orgs = await call('listOrganizationsForAuthenticatedUser', {});
    return appPage(
      'Organizations',
      `<h1>Organizations</h1>${list(orgs.items.map((o: any) => ({ title: o.title, href: `/o/${enc(o.id)}` })))}<p><a href="/o/logout">Sign out</a></p>`,
    );
  }
  // An integration's own `urls.app` is `/integrations/<name>` (installations are under /o/<org>).
  if (segs[0] === '' && segs[1] === 'integrations' && segs.length === 3) return integration(call, segs[2]!, []);
  const [org, kind, id, ...rest] = segs as [string, string | undefined, string | undefined, ...string[]];
  const orgBody = await call('getOrganizationById', { organizationId: org });
  const home = { title: orgBody.title, href: `/o/${enc(org)}` };
  if (kind === undefined) return organization(call, orgBody);
  if (kind === 's' && id) return space(call, home, id, rest);
  if (kind === 'c' && id && !rest.length) return collection(call, home, id);
  if (kind === 'sites' && id && !rest.length) return site(call, home, org, id);
  if (kind === 'openapi' && id && !rest.length) return openapi(call, home, org, id);
  if (kind === 'integrations' && id && !rest.length) return integration(call, id, [home]);
  if (kind === 'conversations' && id === 'clusters' && rest.length === 1) {
    const [c, issues] = await Promise.all([
      call('getConversationsIssuesCluster', { organizationId: org, clusterId: rest[0]! }),
      call('listConversationsIssues', { organizationId: org }, { cluster: rest[0]!, limit: '100' }),
    ]);
    const title = c.label ?? c.title ?? 'Cluster';
    return appPage(title, `<h1>${esc(title)}</h1>${cluster(c, issues.items ?? [])}`, [home]);
  }
  throw new DocsError('not_found', `nothing at /o/${segs.join('/')}`);
}

async function organization(call: Call, o: any) {
  const [spaces, collections, sites, specs] = await Promise.all([
    call('listSpacesInOrganizationById', { organizationId: o.id }, { limit: '1000' }),
    call('listCollectionsInOrganizationById', { organizationId: o.id }, { limit: '1000' }),
    call('listSites', { organizationId: o.id }, { limit: '1000' }),
    call('listOpenAPISpecs', { organizationId: o.id }, { limit: '1000' }),
  ]);
  const link = (x: any) => new URL(x.urls.app).pathname;
  return appPage(
    o.title,
    `<h1>${esc(o.title)}</h1>${section('Collections', list(collections.items.map((c: any) => ({ title: c.title, href: link(c) }))))}${section('Spaces', list(spaces.items.map((s: any) => ({ title: s.title, href: link(s) }))))}${section('Sites', list(sites.items.map((s: any) => ({ title: s.title, href: link(s), note: s.published ? 'published' : 'not published' }))))}${section('OpenAPI specifications', list(specs.items.map((s: any) => ({ title: s.slug, href: link(s) }))))}`,
  );
}

async function collection(call: Call, home: { title: string; href: string }, id: string) {
  const c = await call('getCollectionById', { collectionId: id });
  const spaces = await call('listSpacesInCollectionById', { collectionId: id }, { limit: '1000' });
  return appPage(
    c.title,
    `<h1>${esc(c.title)}</h1>${section('Spaces', list(spaces.items.map((s: any) => ({ title: s.title, href: new URL(s.urls.app).pathname }))))}`,
    [home],
  );
}

function tree(pages: any[], base: string, current?: string): string {
  const items = pages.map((p) => {
    const here = p.path === current ? ' aria-current="page"' : '';
    const title = p.type === 'document' ? `<a href="${attr(`${base}/${p.path.split('/').map(enc).join('/')}`)}"${here}>${esc(p.title)}</a>` : esc(p.title);
    return `<li>${title}${p.pages?.length ? tree(p.pages, base, current) : ''}</li>`;
  });
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

async function space(call: Call, home: { title: string; href: string }, id: string, rest: string[]) {
  const s = await call('getSpaceById', { spaceId: id });
  const base = new URL(s.urls.app).pathname;
  const crumbs = [home, { title: s.title, href: base }];
  if (rest[0] === '~' && rest[1] === 'changes' && rest[2] && rest.length === 3) return changeRequest(call, crumbs, id, rest[2]);
  if (rest[0] === '~' && rest[1] === 'revisions' && rest[2] && rest.length === 3) {
    const rev = await call('getRevisionById', { spaceId: id, revisionId: rest[2] });
    return appPage(
      `Revision ${rev.id}`,
      `<h1>Revision ${esc(rev.id)}</h1><p>${esc(rev.createdAt)} · ${esc(rev.type)}</p>${section('Pages', tree(rev.pages, base))}`,
      crumbs,
    );
  }
  if (rest[0] === '~') throw new DocsError('not_found', `nothing at ${base}/${rest.join('/')}`);
  const [{ pages }, crs] = await Promise.all([call('listPages', { spaceId: id }), call('listChangeRequestsForSpace', { spaceId: id }, { limit: '20' })]);
  const path = rest.join('/');
  let body = '';
  if (path) {
    const [p, files] = await Promise.all([call('getPageByPath', { spaceId: id, pagePath: path }), call('listFiles', { spaceId: id }, { limit: '1000' })]);
    const markdown = p.markdown ?? '';
    // Inline OpenAPI operations drawn as on the site; a missing spec or operation is a visible notice here.
    const specs = new Map<string, Promise<InlineSpec>>();
    const find = (slug: string) => {
      if (!specs.has(slug)) specs.set(slug, previewSpec(call, s.organization, slug));
      return specs.get(slug)!;
    };
    const refs = operationRefs(markdown);
    const found = new Map<string, InlineSpec>();
    for (const r of refs) found.set(r.spec, await find(r.spec));
    const blocks = refs.length ? resolveBlocks(markdown, (slug) => found.get(slug)!) : [];
    const { html } = await renderWithOperations(markdown, previewLinks(pages, files.items ?? [], base, p.id, ctxBase(s)), blocks, true);
    body = `${blocks.length ? `<style>${API_CSS}</style>` : ''}<article><h1>${esc(p.title)}</h1>${html}</article>`;
  } else {
    body = `<h1>${esc(s.title)}</h1>${s.urls.published ? `<p>Published at <a href="${attr(safeUrl(s.urls.published))}">${esc(s.urls.published)}</a></p>` : ''}${section('Change requests', list(crs.items.map((c: any) => ({ title: `#${c.number} ${c.subject ?? ''}`, href: new URL(c.urls.app).pathname, note: c.status }))))}`;
  }
  return appPage(
    s.title,
    `<div class="layout"><aside class="sidebar"><nav aria-label="Pages">${tree(pages, base, path)}</nav></aside><div>${body}</div></div>`,
    crumbs,
  );
}

/** A spec's latest version for a preview, read through the API (as the editor sees it). */
async function previewSpec(call: Call, organizationId: string, specSlug: string): Promise<InlineSpec> {
  try {
    await call('getOpenAPISpecBySlug', { organizationId, specSlug });
  } catch (err) {
    if (err instanceof DocsError && err.kind === 'not_found') return { problem: 'no-spec' };
    throw err;
  }
  let content: any;
  try {
    content = await call('getLatestOpenAPISpecVersionContent', { organizationId, specSlug });
  } catch (err) {
    if (err instanceof DocsError && err.kind === 'not_found') return { problem: 'no-version' };
    throw err;
  }
  try {
    return { spec: buildSpec(content.filesystem ?? {}, content.url) };
  } catch {
    return { problem: 'unreadable' };
  }
}

/** The origin the API's `urls.app` are under (links to it count as links in the app). */
const ctxBase = (s: any) => new URL(s.urls.app).origin;

/**
 * How links resolve in a page preview: pages of the space to their view here, files as
 * written, and links to nothing shown as broken (a warning style: the editors should see them).
 */
function previewLinks(pages: any[], files: any[], base: string, pageId: string, origin: string): RenderOptions {
  const resolver = makeResolver(pages, files, origin);
  const byId = new Map<string, string>();
  const walk = (ps: any[]) => ps.forEach((p) => (byId.set(p.id, p.path), walk(p.pages ?? [])));
  walk(pages);
  return {
    broken: 'warn',
    image: () => undefined,
    link(url) {
      let t;
      try {
        t = resolver.resolve(url, pageId);
      } catch {
        return { broken: true };
      }
      if (t.kind === 'missing-page' || t.kind === 'missing-file') return { broken: true };
      if (t.kind === 'page' && byId.has(t.page)) return { href: `${base}/${byId.get(t.page)!.split('/').map(enc).join('/')}${t.anchor ? `#${t.anchor}` : ''}` };
      return undefined;
    },
  };
}

/** A line diff: added and removed lines colored and marked (+/-), long lines wrapped. */
function diffHtml(before = '', after = ''): string {
  return `<pre class="diff">${diffLines(before, after)
    .map((part) => {
      const sign = part.added ? '+' : part.removed ? '-' : ' ';
      const tag = part.added ? 'ins' : part.removed ? 'del' : 'span';
      return part.value
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `<${tag}>${esc(`${sign} ${l}`)}</${tag}>`)
        .join('');
    })
    .join('')}</pre>`;
}

async function changeRequest(call: Call, crumbs: { title: string; href?: string }[], spaceId: string, number: string) {
  const cr = await call('getChangeRequestById', { spaceId, changeRequestId: number });
  const changes = await call('getChangeRequestChanges', { spaceId, changeRequestId: cr.id });
  const items = (changes.changes ?? []).map((c: any) => {
    const what = c.page ? `${c.type.replace('_', ' ')}: ${c.page.title} (${c.page.path})` : `${c.type.replace('_', ' ')}: ${c.file?.name ?? ''}`;
    const doc = c.attributes?.document;
    return `<li><strong>${esc(what)}</strong>${doc ? diffHtml(doc.before, doc.after) : ''}</li>`;
  });
  return appPage(
    `#${cr.number} ${cr.subject ?? ''}`,
    `<h1>#${esc(cr.number)} ${esc(cr.subject ?? '')}</h1><p>Status: <strong>${esc(cr.status)}</strong></p>${section('Changes', items.length ? `<ul class="changes">${items.join('')}</ul>` : '<p>No changes.</p>')}`,
    crumbs,
  );
}

async function site(call: Call, home: { title: string; href: string }, org: string, id: string) {
  const s = await call('getSiteById', { organizationId: org, siteId: id });
  const structure = await call('getSiteStructure', { organizationId: org, siteId: id });
  const spaceItem = (ss: any) => ({
    title: `${ss.title} (${ss.path})`,
    href: new URL(ss.space.urls.app).pathname,
    // What the published site does not serve (0.202.0's `draft`): the preview of getSitePublishingPreviewById shows it marked.
    note: [ss.draft ? 'draft' : '', ss.hidden ? 'hidden' : ss.condition ? `when ${ss.condition}` : ''].filter(Boolean).join(', '),
  });
  const body =
    structure.type === 'sections'
      ? structure.structure
          .map((n: any) =>
            n.object === 'site-section'
              ? section(n.title, list(n.siteSpaces.map(spaceItem)))
              : section(n.title, n.children.map((c: any) => (c.siteSpaces ? `<h3>${esc(c.title)}</h3>${list(c.siteSpaces.map(spaceItem))}` : '')).join('')),
          )
          .join('')
      : section('Site spaces', list(structure.structure.map(spaceItem)));
  return appPage(
    s.title,
    `<h1>${esc(s.title)}</h1><p>Visibility: ${esc(s.visibility)} · ${s.published ? `published at <a href="${attr(safeUrl(s.urls.published))}">${esc(s.urls.published)}</a>` : 'not published'}</p>${body}`,
    [home],
  );
}

async function openapi(call: Call, home: { title: string; href: string }, org: string, slug: string) {
  const spec = await call('getOpenAPISpecBySlug', { organizationId: org, specSlug: slug });
  const versions = await call('listOpenAPISpecVersions', { organizationId: org, specSlug: slug }, { limit: '100' });
  let ops = '<p>No version yet.</p>';
  try {
    const content = await call('getLatestOpenAPISpecVersionContent', { organizationId: org, specSlug: slug });
    // `filesystem`: the version's documents by file name; the root is the one that says `openapi`.
    const files = Object.values(content.filesystem ?? {}) as any[];
    const doc = files.find((f) => f && typeof f === 'object' && ('openapi' in f || 'swagger' in f)) ?? files[0] ?? {};
    const rows = Object.entries(doc.paths ?? {}).flatMap(([p, item]: [string, any]) =>
      Object.entries(item ?? {})
        .filter(([m]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(m))
        .map(
          ([m, op]: [string, any]) =>
            `<li><code>${esc(m.toUpperCase())} ${esc(p)}</code> ${esc(op?.summary ?? op?.operationId ?? '')}${op?.description ? `<p>${esc(op.description)}</p>` : ''}</li>`,
        ),
    );
    ops = `<p>${esc(doc.info?.title ?? '')} ${esc(doc.info?.version ?? '')}</p>${rows.length ? `<ul>${rows.join('')}</ul>` : '<p>No operations.</p>'}`;
  } catch (err) {
    if (!(err instanceof DocsError) || err.kind !== 'not_found') throw err;
  }
  return appPage(
    spec.slug,
    `<h1>${esc(spec.slug)}</h1>${section('Versions', list(versions.items.map((v: any) => ({ title: v.id, note: v.createdAt }))))}${section('Operations (latest version)', ops)}`,
    [home],
  );
}

async function integration(call: Call, name: string, crumbs: { title: string; href?: string }[]) {
  const i = await call('getIntegrationByName', { integrationName: name });
  return appPage(
    i.title,
    `<h1>${esc(i.title)}</h1><p>${esc(i.description ?? '')}</p><dl><dt>Name</dt><dd>${esc(i.name)}</dd><dt>Scopes</dt><dd>${esc((i.scopes ?? []).join(', '))}</dd></dl>`,
    crumbs,
  );
}

/** A value as table text: strings and numbers as they are, dates as dates. */
const cell = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'object' ? '' : String(v).replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*Z$/, '$1 $2 UTC');

/** Rows as a table: a header row from `cols` ([key, heading]), one row per record. */
export function table(rows: Record<string, unknown>[], cols: [string, string][], caption?: string): string {
  if (!rows.length) return '<p>None.</p>';
  return `<div class="table-wrap" tabindex="0"><table>${caption ? `<caption>${esc(caption)}</caption>` : ''}<thead><tr>${cols.map(([, h]) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${cols.map(([k]) => `<td>${esc(cell(r[k]))}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

/** A conversation cluster: its summary, figures, weekly pulse and sources as tables, then its issues. */
function cluster(c: Record<string, any>, issues: any[]): string {
  const kv = (o: unknown) => (o && typeof o === 'object' ? Object.entries(o as object).map(([k, v]) => ({ k, v })) : []);
  const weeks = Array.isArray(c.weeklyPulse)
    ? c.weeklyPulse.map((n: unknown, i: number, a: unknown[]) => ({ k: i === a.length - 1 ? 'this week' : `${a.length - 1 - i} weeks ago`, v: n }))
    : [];
  const rows = issues.map((i) => ({ title: i.issue?.title, summary: i.issue?.summary, conversation: i.conversation?.subject, at: i.issue?.createdAt }));
  return `${c.summary ? `<p>${esc(c.summary)}</p>` : ''}<p class="updated">Created ${esc(cell(c.createdAt))} · updated ${esc(cell(c.updatedAt))}</p>
${section(
  'Issues',
  table(rows, [
    ['title', 'Issue'],
    ['summary', 'Summary'],
    ['conversation', 'Conversation'],
    ['at', 'Created'],
  ]),
)}
${section(
  'Figures',
  table(kv(c.stats), [
    ['k', 'Figure'],
    ['v', 'Count'],
  ]),
)}
${section(
  'Weekly pulse',
  table(
    weeks.filter((w: any) => w.v),
    [
      ['k', 'Week'],
      ['v', 'Issues'],
    ],
  ),
)}
${section(
  'Sources',
  table(kv(c.sources), [
    ['k', 'Source'],
    ['v', 'Issues'],
  ]),
)}`;
}
