import type { Located } from '../../content/tree.js';
import type { Context } from '../../kernel/context.js';
import { searchOrganization, type SearchHit } from '../../search/service.js';
import type { SpaceRecord } from '../../spaces/model.js';
import { hasSpecs } from './api-load.js';
import { plainSpace } from './page-nav.js';
import { pageVisible, spacePages, type PageIndexed } from './pages.js';
import { listedSpaces, type SiteView, type SpaceEntry } from './site.js';

// Search across a site as one visitor sees it: the organization's full-text index
// (src/search/service.ts) asked about the site's listed spaces only (or the ones `only` keeps),
// results kept to the pages this visitor may see, grouped by site space. The published site's
// search (src/published/search.ts: its form, /~/search.json, the site's MCP server) and the API's
// searchSiteContent (src/urls/operations.ts) both read it, and present it each their own way.

export interface SiteSearchPage {
  page: Located;
  /** The index's hit (title, description, score, rank, matching sections); none for an API operation. */
  hit?: SearchHit;
  /** An operation of an API reference of the space (its operations are not in the text index). */
  op?: { title: string; section: string; snippet: string };
}

export interface SiteSearchGroup {
  entry: SpaceEntry;
  /** The best page's score (0 when only API operations matched). */
  score: number;
  pages: SiteSearchPage[];
}

/** The visitor's view searched for `q`: groups in the index's order, then spaces where only API operations matched. */
export async function searchSiteView(ctx: Context, view: SiteView, q: string, only?: (e: SpaceEntry) => boolean): Promise<SiteSearchGroup[]> {
  if (!q.trim()) return [];
  const entries = new Map<string, SpaceEntry>();
  for (const e of only ? view.sections.flatMap((s) => s.spaces).filter(only) : listedSpaces(view)) if (!entries.has(e.space.id)) entries.set(e.space.id, e);
  const spaces: SpaceRecord[] = [...entries.values()].map((e) => e.space);
  const found = await searchOrganization(ctx, view.org.id, spaces, q);
  // Spaces with an API reference are asked too (their operations are not in the text index).
  const all = [
    ...found.map((f) => ({ space: f.space, score: f.score, hits: f.hits })),
    ...spaces.filter((s) => !found.some((f) => f.space.id === s.id)).map((space) => ({ space, score: 0, hits: [] as SearchHit[] })),
  ];
  return ctx.store.read((tx) =>
    all.flatMap(({ space, score, hits }): SiteSearchGroup[] => {
      const entry = entries.get(space.id)!;
      // Nothing found and no API reference to ask: nothing to read.
      if (!hits.length && !hasSpecs(tx, space.organization)) return [];
      // A space whose pages are all listed and open: the hits as they are, no tree read.
      const plain = plainSpace(tx, entry.space);
      if (plain === 'pending') return []; // the read runs again once its row is loaded
      if (plain) return hits.length ? [{ entry, score, pages: hits.map((hit) => ({ page: hitPage(hit), hit })) }] : [];
      const ix = spacePages(tx, entry.space);
      const pages = hits.flatMap((hit): SiteSearchPage[] => {
        const l = ix.byId.get(hit.page);
        // Hidden pages are left out of search as out of navigation; pages closed to the visitor too.
        if (!l || hiddenIn(ix, l) || l.node.type !== 'document' || !pageVisible(ix, l, view.visitor)) return [];
        return [{ page: l, hit }];
      });
      pages.push(...apiHits(ix, view, q, new Set(pages.map((p) => p.page.node.id))));
      return pages.length ? [{ entry, score, pages }] : [];
    }),
  );
}

/** A hit's page as the index has it (its path and ancestors at the revision searched). */
function hitPage(hit: SearchHit): Located {
  const slug = hit.path.slice(hit.path.lastIndexOf('/') + 1);
  return {
    node: {
      id: hit.page,
      type: 'document',
      title: hit.title,
      slug,
      ...(hit.description ? { description: hit.description } : {}),
      createdAt: '',
      updatedAt: '',
      pages: [],
    },
    path: hit.path,
    ancestors: hit.ancestors,
    parent: null,
  };
}

const hiddenIn = (ix: PageIndexed, l: Located) => l.node.hidden || l.ancestors.some((a) => ix.byId.get(a.id)?.node.hidden);

const API_HITS = 20;

/** Operations of the space's API references whose words hold every word of the query. */
function apiHits(ix: PageIndexed, view: SiteView, q: string, seen: Set<string>): SiteSearchPage[] {
  if (!ix.api) return [];
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const out: SiteSearchPage[] = [];
  for (const [id, p] of ix.api) {
    if (p.kind !== 'op' || out.length >= API_HITS) continue;
    const op = p.op!;
    const text = `${op.title} ${op.method} ${op.path} ${op.operationId ?? ''} ${op.description ?? ''}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    const l = ix.byId.get(id);
    if (!l || l.ancestors.some((a) => ix.byId.get(a.id)?.node.hidden) || !pageVisible(ix, l, view.visitor)) continue;
    if (seen.has(l.node.id)) continue;
    seen.add(l.node.id);
    out.push({
      page: l,
      op: {
        title: op.title,
        section: `${op.method.toUpperCase()} ${op.path}`,
        snippet: (op.description ?? op.summary ?? '').replace(/\s+/g, ' ').slice(0, 160),
      },
    });
  }
  return out;
}
