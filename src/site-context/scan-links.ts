import { headingAnchors } from '../content/heading-anchors.js';
import { extractLinks, joinPath, makeResolver, pageDir, pagePathOf, type Parse } from '../content/link-refs.js';
import { flatten } from '../content/tree.js';
import type { BrokenLinkFix, SiteFindingRecord } from './finding-model.js';
import type { ScanInputs, ScanPage } from './scan-inputs.js';

// Broken links (docs/manual/site-findings.md#what-a-scan-does): the links of the site's pages that
// lead nowhere on the site, resolved as the content area resolves them (src/content/link-refs.ts,
// what listSpaceLinks reports): a page or a file that is not in the space, or an anchor
// (`page.md#x`, `#x`) that no heading of the page answers to (src/content/heading-anchors.ts, as
// `docs content check` checks them). One finding per page and link. When the missing page's last
// path segment is the slug of exactly one page of the space, that page is the fix: a redirect
// from the address the link leads to (brokenLinkAction, createSiteRedirect's input) and the link
// rewritten in a change request.

export interface BrokenLink {
  page: ScanPage;
  url: string;
  /** What is missing: the page or file (`ref`), or the anchor on an existing page. */
  missing: { kind: 'page' | 'file'; ref: string } | { kind: 'anchor'; anchor: string; targetTitle: string };
  fix: BrokenLinkFix;
  action?: SiteFindingRecord['brokenLinkAction'];
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const SOURCE = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;

export function brokenLinks(inputs: ScanInputs, parse: Parse, baseUrl: string): BrokenLink[] {
  const out: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const byId = new Map(inputs.pages.map((p) => [`${p.space.id}/${p.node.id}`, p]));
  const anchorsOf = (p: ScanPage) => {
    const k = `${p.space.id}/${p.node.id}`;
    let a = anchorCache.get(k);
    if (!a) anchorCache.set(k, (a = headingAnchors(parse(p.markdown))));
    return a;
  };
  for (const [spaceId, tree] of inputs.trees) {
    const resolver = makeResolver(tree.pages, tree.files, baseUrl);
    const flat = flatten(tree.pages);
    const located = new Map(flat.map((l) => [l.node.id, l]));
    for (const page of inputs.pages.filter((p) => p.space.id === spaceId)) {
      const seen = new Set<string>();
      for (const link of extractLinks(parse, page.markdown)) {
        if (seen.has(link.url)) continue;
        seen.add(link.url);
        const t = resolver.resolve(link.url, page.node.id);
        const base = { page, url: link.url };
        if (t.kind === 'missing-page' || t.kind === 'missing-file') {
          const broken: BrokenLink = {
            ...base,
            missing: { kind: t.kind === 'missing-page' ? 'page' : 'file', ref: t.ref },
            fix: { space: spaceId, page: page.node.id, url: link.url },
          };
          if (t.kind === 'missing-page' && !t.ref.startsWith('/pages/')) {
            // Where the link leads on the site, and the one page of the space named like it.
            const here = located.get(page.node.id);
            const dir = here ? pageDir(here.path, here.node.pages.length > 0) : '';
            const path = joinPath(dir, decode(link.url.split('#')[0]!).replace(/^\.\//, ''));
            const missingPath = path === undefined ? undefined : pagePathOf(path);
            const slug = missingPath?.split('/').pop();
            const named = slug ? flat.filter((l) => l.node.type === 'document' && l.node.slug === slug) : [];
            if (missingPath && named.length === 1) {
              const to = named[0]!;
              broken.fix.replacement = { page: to.node.id, path: to.path };
              const prefix = page.sitePath.slice(0, page.sitePath.length - page.path.length).replace(/\/$/, '');
              const source = `${prefix}/${missingPath.split('/').map(encodeURIComponent).join('/')}`;
              if (SOURCE.test(source) && source.length <= 512) broken.action = { source, destination: { kind: 'path', spaceId, path: to.path } };
            }
          }
          out.push(broken);
        } else if (t.kind === 'page' && t.anchor) {
          const target = byId.get(`${spaceId}/${t.page}`);
          const anchor = decode(t.anchor);
          if (target && !anchorsOf(target).has(anchor))
            out.push({
              ...base,
              missing: { kind: 'anchor', anchor, targetTitle: target.node.title },
              fix: { space: spaceId, page: page.node.id, url: link.url },
            });
        } else if (t.kind === 'anchor') {
          const anchor = decode(link.url.slice(1));
          if (anchor && !anchorsOf(page).has(anchor))
            out.push({
              ...base,
              missing: { kind: 'anchor', anchor, targetTitle: page.node.title },
              fix: { space: spaceId, page: page.node.id, url: link.url },
            });
        }
      }
    }
  }
  return out;
}
