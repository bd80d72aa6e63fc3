import type { PageNode } from '../../content/model.js';
import type { Located } from '../../content/tree.js';
import { FULL_TREE } from '../../urls/site/page-nav.js';
import { pageVisible, type PageIndexed } from '../../urls/site/pages.js';
import type { SpaceEntry } from '../../urls/site/site.js';
import type { Visitor } from '../../urls/site/visitor.js';
import { attr, esc, safeUrl } from './html.js';

// The parts of a content page inside the frame: the sidebar (the space's page tree), the
// breadcrumbs, the page, previous/next.

export const pageUrl = (entry: SpaceEntry, path: string) => (path ? `${entry.url}/${path.split('/').map(encodeURIComponent).join('/')}` : entry.url);

/** Up to this many pages, the whole tree is drawn (collapsed by the script); past it, the current branch only. */
export { FULL_TREE };

/**
 * The page tree as nested lists: groups as headings, link pages as links out, hidden pages and
 * pages closed to the visitor left out. A page with children has a disclosure arrow (a button
 * with aria-expanded, working with the script; without it every branch shows): the current
 * page's branch open, the others closed. A space of thousands of pages draws its current branch
 * only, so the page stays short.
 */
export function sidebar(ix: PageIndexed, entry: SpaceEntry, current: Located | undefined, visitor: Visitor): string {
  const open = new Set(current ? [...current.ancestors.map((a) => a.id), current.node.id] : []);
  const whole = (ix.pageCount ?? ix.byId.size) <= FULL_TREE;
  const item = (p: PageNode, depth: number): string => {
    if (p.hidden) return '';
    const l = ix.byId.get(p.id)!;
    if (!satisfiesPage(ix, l, visitor)) return '';
    if (p.type === 'group') return `<li><div class="group">${esc(p.title)}</div>${list(p.pages, depth + 1)}</li>`;
    if (p.type === 'link') {
      const href =
        p.target?.kind === 'url'
          ? p.target.url
          : (p.target?.kind === 'page' || p.target?.kind === 'anchor') && ix.byId.get(p.target.page)
            ? // A page of the space (and a heading in it): its address on the site, #anchor kept.
              `${pageUrl(entry, ix.byId.get(p.target.page)!.path)}${p.target.kind === 'anchor' ? `#${encodeURIComponent(p.target.anchor)}` : ''}`
            : p.href;
      // A link page to a URL leaves the site: marked as such (an arrow, docs/manual/docs-as-code.md#link-pages) and
      // opened without handing the site's address or window to the other side.
      const external = p.target?.kind === 'url' || (!p.target && !!p.href);
      return href ? `<li><a href="${attr(safeUrl(href))}"${external ? ' class="external" rel="noopener noreferrer"' : ''}>${esc(p.title)}</a></li>` : '';
    }
    const here = current?.node.id === p.id ? ' aria-current="page"' : '';
    const link = `<a href="${attr(pageUrl(entry, l.path))}"${here}>${p.emoji ? `${esc(emoji(p.emoji))} ` : ''}${esc(p.title)}</a>`;
    const isOpen = open.has(p.id);
    const children = p.pages.length && (whole || isOpen) ? list(p.pages, depth + 1) : '';
    if (!children) return `<li>${link}</li>`;
    return `<li${isOpen ? '' : ' class="closed"'}><div class="row">${link}<button class="arrow" type="button" aria-expanded="${isOpen}" aria-label="${attr(p.title)}: subpages"></button></div>${children}</li>`;
  };
  const list = (pages: readonly PageNode[], depth: number): string => {
    const inner = pages.map((p) => item(p, depth)).join('');
    return inner ? `<ul>${inner}</ul>` : '';
  };
  return `<nav aria-label="Pages">${list(ix.tree, 0)}</nav>`;
}

const satisfiesPage = (ix: PageIndexed, l: Located, visitor: Visitor) => pageVisible(ix, l, visitor);

/** An emoji given as code points (`1f680`) or as the character. */
export function emoji(e: string): string {
  if (!/^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(e)) return e;
  const points = e.split('-').map((h) => parseInt(h, 16));
  // Past U+10FFFF is no character: shown as written rather than failing the page.
  return points.every((p) => p <= 0x10ffff) ? String.fromCodePoint(...points) : e;
}

export function pageMain(
  entry: SpaceEntry,
  l: Located,
  html: string,
  prev: Located | undefined,
  next: Located | undefined,
  pagination: boolean,
  actions = '',
): string {
  // An ancestor's path is the start of the page's (a group's address leads to its first page).
  const segs = l.path.split('/');
  const crumbs = [
    `<li><a href="${attr(entry.url)}">${esc(entry.space.title)}</a></li>`,
    ...l.ancestors.map((a, i) => `<li><a href="${attr(pageUrl(entry, segs.slice(0, i + 1).join('/')))}">${esc(a.title)}</a></li>`),
  ];
  const pager =
    pagination && (prev || next)
      ? `<nav class="pager" aria-label="Previous and next">${prev ? `<a rel="prev" href="${attr(pageUrl(entry, prev.path))}">← ${esc(prev.node.title)}</a>` : '<span></span>'}${next ? `<a rel="next" href="${attr(pageUrl(entry, next.path))}">${esc(next.node.title)} →</a>` : ''}</nav>`
      : '';
  return `<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>${crumbs.join('')}</ol></nav>
<h1>${l.node.emoji ? `${esc(emoji(l.node.emoji))} ` : ''}${esc(l.node.title)}</h1>
${actions}${l.node.description ? `<p class="description">${esc(l.node.description)}</p>` : ''}
<article class="content">${html}</article>
${updated(l.node.updatedAt)}${pager}`;
}

/** "Last updated" with the page's time (UTC date shown, the exact time in `datetime`). */
function updated(at: string | undefined): string {
  const d = at ? new Date(at) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '';
  const shown = d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  return `<p class="updated">Last updated <time datetime="${attr(d.toISOString())}">${esc(shown)}</time></p>`;
}

export const notFoundMain = (home: string) =>
  `<div class="notfound"><h1>Page not found</h1><p>The page you are looking for does not exist or is not available to you.</p><p><a href="${attr(home)}">Go to the home page</a></p></div>`;
