import { searchOrganization } from '../search/service.js';
import type { Context } from '../kernel/context.js';
import type { SpaceRecord } from '../spaces/model.js';
import { pageVisible, spacePages, type PageIndexed } from './pages.js';
import { attr, esc } from './render/html.js';
import { pageUrl } from './render/page.js';
import { listedSpaces, type SiteView, type SpaceEntry } from './site.js';

// Search across a published site: the organization's full-text index (src/search/service.ts)
// asked about the site's listed spaces only, results kept to the pages this visitor may see and
// grouped by section and space, each with its matching sections.

export interface SearchGroup {
  section?: string;
  space: string;
  url: string;
  pages: { title: string; url: string; sections: { title: string; url: string; snippet: string }[] }[];
}

export async function searchSite(ctx: Context, view: SiteView, q: string): Promise<SearchGroup[]> {
  if (!q.trim()) return [];
  const entries = new Map<string, SpaceEntry>();
  for (const e of listedSpaces(view)) if (!entries.has(e.space.id)) entries.set(e.space.id, e);
  const spaces: SpaceRecord[] = [...entries.values()].map((e) => e.space);
  const found = await searchOrganization(ctx, view.org.id, spaces, q);
  // Spaces with an API reference are asked too (their operations are not in the text index).
  const all = [
    ...found.map((f) => ({ space: f.space, hits: f.hits })),
    ...spaces.filter((s) => !found.some((f) => f.space.id === s.id)).map((space) => ({ space, hits: [] as (typeof found)[number]['hits'] })),
  ];
  return ctx.store.read((tx) =>
    all.flatMap(({ space, hits }) => {
      const entry = entries.get(space.id)!;
      const ix = spacePages(tx, entry.space);
      const pages = hits.flatMap((h) => {
        const l = ix.byId.get(h.page);
        const hidden = l && (l.node.hidden || l.ancestors.some((a) => ix.byId.get(a.id)?.node.hidden));
        // Hidden pages are left out of search as out of navigation; pages closed to the visitor too.
        if (!l || hidden || l.node.type !== 'document' || !pageVisible(ix, l, view.visitor)) return [];
        const url = pageUrl(entry, l.path);
        return [
          { title: l.node.title, url, sections: h.sections.map((s) => ({ title: s.title, url: s.anchor ? `${url}#${s.anchor}` : url, snippet: s.snippet() })) },
        ];
      });
      pages.push(...apiHits(ix, entry, view, q, new Set(pages.map((p) => p.url))));
      return pages.length ? [{ ...(entry.section.row ? { section: entry.section.row.title } : {}), space: entry.space.title, url: entry.url, pages }] : [];
    }),
  );
}

const API_HITS = 20;

/** Operations of the space's API references whose words hold every word of the query. */
function apiHits(ix: PageIndexed, entry: SpaceEntry, view: SiteView, q: string, seen: Set<string>): SearchGroup['pages'] {
  if (!ix.api) return [];
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const out: SearchGroup['pages'] = [];
  for (const [id, p] of ix.api) {
    if (p.kind !== 'op' || out.length >= API_HITS) continue;
    const op = p.op!;
    const text = `${op.title} ${op.method} ${op.path} ${op.operationId ?? ''} ${op.description ?? ''}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    const l = ix.byId.get(id);
    if (!l || l.ancestors.some((a) => ix.byId.get(a.id)?.node.hidden) || !pageVisible(ix, l, view.visitor)) continue;
    const url = pageUrl(entry, l.path);
    if (seen.has(url)) continue;
    out.push({
      title: op.title,
      url,
      sections: [{ title: `${op.method.toUpperCase()} ${op.path}`, url, snippet: (op.description ?? op.summary ?? '').replace(/\s+/g, ' ').slice(0, 160) }],
    });
  }
  return out;
}

export function searchPage(q: string, groups: SearchGroup[]): string {
  const total = groups.reduce((n, g) => n + g.pages.length, 0);
  const head = `<h1>Search</h1><form class="search page-search" role="search" aria-label="Search again" method="get"><label for="q2">Search for</label> <input id="q2" type="search" name="q" value="${attr(q)}"><button type="submit">Search</button></form>`;
  if (!q.trim()) return head;
  if (!total) return `${head}<p role="status">No results for “${esc(q)}”.</p>`;
  return `${head}<p role="status">${total} result${total === 1 ? '' : 's'} for “${esc(q)}”.</p>${groups
    .map(
      (g) =>
        `<section class="results"><h2>${esc([g.section, g.space].filter(Boolean).join(' › '))}</h2><ol>${g.pages
          .map(
            (p) =>
              `<li><a href="${attr(p.url)}">${esc(p.title)}</a>${p.sections.map((s) => `<div class="snippet"><a href="${attr(s.url)}">${esc(s.title)}</a> — ${esc(s.snippet)}</div>`).join('')}</li>`,
          )
          .join('')}</ol></section>`,
    )
    .join('')}`;
}
