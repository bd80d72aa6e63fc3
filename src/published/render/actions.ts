import type { Settings } from '../../sites/customization.js';
import { attr } from './html.js';

// The page actions of a content page (0.202.0's `pageActions.items`, in their order): plain
// links, whole without script. Only the kinds this server can honour are drawn: `external-ai`
// (sending the page to a third-party assistant) and `pdf` (no per-page PDF route on a published
// site) are left out, as is any kind this renderer does not know.

export interface ActionUrls {
  /** The page's markdown (its URL + `.md`). */
  markdown: string;
  /** The site's MCP server (`<site>/mcp`). */
  mcp: string;
  /** The page in the app (its `urls.app`). */
  app: string;
}

export function pageActions(settings: Settings, urls: ActionUrls): string {
  const items: unknown[] = Array.isArray(settings.pageActions?.items) ? settings.pageActions.items : [];
  const seen = new Set<string>();
  const links: string[] = [];
  for (const kind of items) {
    if (typeof kind !== 'string' || seen.has(kind)) continue;
    seen.add(kind);
    const link = (href: string, text: string, extra = '') => links.push(`<li><a href="${attr(href)}"${extra}>${text}</a></li>`);
    if (kind === 'markdown') link(urls.markdown, 'View as Markdown', ' type="text/markdown"');
    else if (kind === 'mcp') link(urls.mcp, 'MCP server');
    // The edit link follows the customization's git switch (0.146.0 `git.showEditLink`).
    else if (kind === 'git' && settings.git?.showEditLink === true) link(urls.app, 'Edit in the app', ' rel="nofollow"');
  }
  return links.length ? `<nav class="page-actions" aria-label="Page actions"><ul>${links.join('')}</ul></nav>` : '';
}
