import type { Context } from '../kernel/context.js';
import type { SiteView } from '../urls/site/site.js';
import { searchSiteView } from '../urls/site/search.js';
import { attr, esc } from './render/html.js';
import { pageUrl } from './render/page.js';

// Search across a published site (src/urls/site/search.ts, which the API's searchSiteContent
// reads too), presented for the site: grouped by section and space, each page with its matching
// sections, at the site's addresses.

export interface SearchGroup {
  section?: string;
  space: string;
  url: string;
  pages: { title: string; url: string; sections: { title: string; url: string; snippet: string }[] }[];
}

export async function searchSite(ctx: Context, view: SiteView, q: string): Promise<SearchGroup[]> {
  const groups = await searchSiteView(ctx, view, q);
  return groups.map(({ entry, pages }) => ({
    ...(entry.section.row ? { section: entry.section.row.title } : {}),
    space: entry.space.title,
    url: entry.url,
    pages: pages.map(({ page, hit, op }) => {
      const url = pageUrl(entry, page.path);
      if (op) return { title: op.title, url, sections: [{ title: op.section, url, snippet: op.snippet }] };
      return {
        title: page.node.title,
        url,
        sections: hit!.sections.map((s) => ({ title: s.title, url: s.anchor ? `${url}#${s.anchor}` : url, snippet: s.snippet() })),
      };
    }),
  }));
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
