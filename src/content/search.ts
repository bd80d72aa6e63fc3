import MiniSearch from 'minisearch';
import type { ReadTx } from '../store/port.js';
import type { ContentRevision } from './model.js';
import { markdownOf, treeOf } from './revisions.js';
import { flatten } from './tree.js';

// Full-text search with MiniSearch. An index belongs to one revision (immutable), so it can
// never be stale: an edit, a merge or a push moves the space to a new revision id and the next
// search builds that revision's index (lazily, then cached; a few recent revisions are kept).
// A page is indexed as sections split at its headings; results are pages ranked by their best
// section, with the matching sections (heading title and a snippet of body).

interface SectionDoc {
  id: string;
  page: string;
  pageTitle: string;
  path: string;
  anchor: string;
  title: string;
  body: string;
}

export interface SpaceIndex {
  search(query: string): SearchHit[];
}

export interface SearchHit {
  page: string;
  title: string;
  path: string;
  ancestors: { id: string; title: string }[];
  sections: { id: string; title: string; anchor: string; body: string }[];
}

const CACHE_MAX = 32;
const cache = new Map<string, SpaceIndex>();

const anchorOf = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Splits a body at its ATX headings (outside code fences) into titled sections. */
function sections(title: string, markdown: string): { title: string; anchor: string; body: string }[] {
  const out = [{ title, anchor: '', body: [] as string[] }];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = !fence && /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (h) out.push({ title: h[1]!, anchor: anchorOf(h[1]!), body: [] });
    else out[out.length - 1]!.body.push(line);
  }
  return out.map((s) => ({ ...s, body: s.body.join('\n').trim() })).filter((s, i) => i === 0 || s.body || s.title);
}

function snippet(body: string, terms: string[]): string {
  // Links read as their text in a snippet.
  const text = body.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_>#\[\]()!|-]+/g, ' ').replace(/\s+/g, ' ').trim();
  const lower = text.toLowerCase();
  const at = Math.max(0, Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), text.length));
  const from = Math.max(0, at - 60);
  return (from > 0 ? '…' : '') + text.slice(from, from + 200) + (from + 200 < text.length ? '…' : '');
}

function build(tx: ReadTx, rev: ContentRevision): SpaceIndex {
  const mini = new MiniSearch<SectionDoc>({
    fields: ['pageTitle', 'title', 'body'],
    storeFields: ['page', 'title', 'anchor', 'body'],
    searchOptions: { boost: { pageTitle: 3, title: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'AND' },
  });
  const info = new Map<string, { title: string; path: string; ancestors: SearchHit['ancestors'] }>();
  const docs: SectionDoc[] = [];
  for (const l of flatten(treeOf(tx, rev))) {
    if (l.node.type !== 'document' || l.node.noIndex) continue;
    info.set(l.node.id, { title: l.node.title, path: l.path, ancestors: l.ancestors });
    sections(l.node.title, markdownOf(tx, rev.space, l.node)).forEach((s, i) =>
      docs.push({ id: `${l.node.id}#${i}`, page: l.node.id, pageTitle: l.node.title, path: l.path, anchor: s.anchor, title: s.title, body: s.body }),
    );
  }
  mini.addAll(docs);
  return {
    search(query) {
      const byPage = new Map<string, { score: number; hit: SearchHit }>();
      for (const r of mini.search(query)) {
        const p = info.get(r.page)!;
        let e = byPage.get(r.page);
        if (!e) byPage.set(r.page, (e = { score: 0, hit: { page: r.page, title: p.title, path: p.path, ancestors: p.ancestors, sections: [] } }));
        e.score = Math.max(e.score, r.score);
        e.hit.sections.push({ id: r.id, title: r.title, anchor: r.anchor, body: snippet(r.body, r.terms) });
      }
      return [...byPage.values()].sort((a, b) => b.score - a.score).map((e) => e.hit);
    },
  };
}

/** The index of a revision, built on first use. */
export function revisionIndex(tx: ReadTx, rev: ContentRevision): SpaceIndex {
  let idx = cache.get(rev.id);
  if (idx) {
    cache.delete(rev.id);
  } else {
    idx = build(tx, rev);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  cache.set(rev.id, idx);
  return idx;
}
