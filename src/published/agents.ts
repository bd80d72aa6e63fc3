import type { Context } from '../kernel/context.js';
import { markdownOf } from '../content/revisions.js';
import { listedPages, openSite, siteSegments } from '../urls/site/open.js';
import { firstPage, pageVisible, spacePages } from '../urls/site/pages.js';
import { pageUrl } from './render/page.js';
import { locate, siteView } from '../urls/site/site.js';

// A published site as an agent reads it, for a visitor: the pages they may see, and a page as
// markdown. The same rules as the HTML site (visibility, share keys, tokens, conditions), for
// callers that are not a browser (an MCP server, scripts). Nothing here renders HTML.

export interface AgentVisitor {
  /** The key of an active share link (share-link sites). */
  shareKey?: string;
  /** A visitor token signed with this data directory's visitor key. */
  token?: string;
  /** Unsigned claims, kept where the site's adaptive schema declares them. */
  unsigned?: Record<string, string>;
}

export interface AgentPage {
  title: string;
  description?: string;
  /** The page's address on this server. */
  url: string;
  space: string;
  section?: string;
}

const enter = async (ctx: Context, url: string, visitor: AgentVisitor) => {
  const segs = siteSegments(url);
  if (!segs) return undefined;
  const [orgKey, basename, ...rest] = segs as [string, string, ...string[]];
  const opened = await openSite(ctx, orgKey, basename, () => ({ ...visitor, unsigned: visitor.unsigned ?? {} }));
  return opened && { ...opened, rest };
};

/**
 * The pages of the published site at `siteUrl` (or any URL under it) that `visitor` may see and
 * that are listed, in navigation order; undefined when the visitor may not see the site at all.
 */
export async function sitePagesForVisitor(
  ctx: Context,
  siteUrl: string,
  visitor: AgentVisitor = {},
): Promise<{ title: string; url: string; pages: AgentPage[] } | undefined> {
  const opened = await enter(ctx, siteUrl, visitor);
  if (!opened) return undefined;
  return ctx.store.read((tx) => {
    const view = siteView(tx, opened.ref, opened.visitor);
    return {
      title: view.site.title,
      url: `${ctx.baseUrl}${view.base}`,
      pages: listedPages(tx, view).map(({ entry, page }) => ({
        title: page.node.title,
        ...(page.node.description ? { description: page.node.description } : {}),
        url: `${ctx.baseUrl}${pageUrl(entry, page.path)}`,
        space: entry.space.title,
        ...(entry.section.row ? { section: entry.section.row.title } : {}),
      })),
    };
  });
}

/** The page at `pageUrl` as markdown (its title as a heading), if `visitor` may see it. */
export async function pageMarkdownForVisitor(
  ctx: Context,
  pageUrlGiven: string,
  visitor: AgentVisitor = {},
): Promise<{ title: string; url: string; markdown: string } | undefined> {
  const opened = await enter(ctx, pageUrlGiven.replace(/\.md$/, ''), visitor);
  if (!opened) return undefined;
  return ctx.store.read((tx) => {
    const view = siteView(tx, opened.ref, opened.visitor);
    const at = locate(view, opened.rest);
    if (at.kind !== 'space') return undefined;
    const ix = spacePages(tx, at.entry.space);
    const path = at.rest.join('/');
    const page = path ? ix.byPath.get(path) : firstPage(ix, opened.visitor);
    if (page?.node.type !== 'document' || !pageVisible(ix, page, opened.visitor)) return undefined;
    return {
      title: page.node.title,
      url: `${ctx.baseUrl}${pageUrl(at.entry, page.path)}`,
      markdown: `# ${page.node.title}\n\n${markdownOf(tx, at.entry.space.id, page.node)}`,
    };
  });
}
