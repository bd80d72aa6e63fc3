import { publishedMarkdown } from './content.js';
import { inlineRefsOf, inlineSpec } from '../urls/site/api-load.js';
import { resolveBlock } from './api/inline.js';
import type { Context } from '../kernel/context.js';
import type { ReadTx } from '../store/port.js';
import { listedPages } from '../urls/site/open.js';
import { esc } from './render/html.js';
import { pageUrl } from './render/page.js';
import type { SiteView } from '../urls/site/site.js';

// What GitBook publishes beside each site for machines and agents: robots.txt, sitemap.xml,
// llms.txt (the site map as markdown links), llms-full.txt (every page as markdown). Each lists
// only what the visitor asking may see.

const abs = (ctx: Context, path: string) => `${ctx.baseUrl}${path}`;

export function robots(ctx: Context, view: SiteView): string {
  // Unlisted and share-link sites are not for crawlers, whoever holds a key.
  if (view.site.visibility !== 'public') return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${abs(ctx, `${view.base}/sitemap.xml`)}\n`;
}

export function sitemap(tx: ReadTx, ctx: Context, view: SiteView): string {
  const urls = view.site.visibility === 'public' ? listedPages(tx, view, { robots: true }) : [];
  const items = urls.map((p) => `<url><loc>${esc(abs(ctx, pageUrl(p.entry, p.page.path)))}</loc><lastmod>${esc(p.page.node.updatedAt)}</lastmod></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</urlset>\n`;
}

const mdText = (s: string) => s.replace(/([[\]\\])/g, '\\$1');

export function llmsIndex(tx: ReadTx, ctx: Context, view: SiteView): string {
  const out = [`# ${view.site.title}`, ''];
  let heading = '';
  for (const p of listedPages(tx, view)) {
    const h = [p.entry.section.row?.title, p.entry.space.title].filter(Boolean).join(' / ');
    if (h !== heading) out.push('', `## ${h}`, ''), (heading = h);
    out.push(`- [${mdText(p.page.node.title)}](${abs(ctx, pageUrl(p.entry, p.page.path))}.md)${p.page.node.description ? `: ${p.page.node.description}` : ''}`);
    // The operations its `openapi-operation` blocks show (a missing one is left out).
    for (const ref of inlineRefsOf(tx, p.entry.space.id, p.page.node)) {
      const b = resolveBlock(ref, inlineSpec(tx, p.entry.space.organization, ref.spec));
      if ('op' in b) out.push(`  - \`${b.op.method.toUpperCase()} ${b.op.path}\`: ${b.op.title}`);
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

export function llmsFull(tx: ReadTx, ctx: Context, view: SiteView): string {
  return listedPages(tx, view)
    .map(
      (p) =>
        `# ${p.page.node.title}\n\nSource: ${abs(ctx, pageUrl(p.entry, p.page.path))}\n\n${publishedMarkdown(tx, p.entry.space, p.ix, p.page.node).trim()}\n`,
    )
    .join('\n---\n\n');
}
