import { createRequire } from 'node:module';
import type MiniSearchType from 'minisearch';

// MiniSearch is loaded on the first search, not by every command that loads this area.
const require = createRequire(import.meta.url);
let miniSearchClass: typeof MiniSearchType | undefined;
const MiniSearchClass = () => (miniSearchClass ??= require('minisearch') as typeof MiniSearchType);
type MiniSearch<T> = MiniSearchType<T>;
import type { ReadTx } from '../store/port.js';
import type { ContentRevision } from './model.js';
import { markdownOf, treeOf } from './revisions.js';
import { flatten } from './tree.js';

// Full-text search with MiniSearch. A space's index is at one revision; a search of another
// revision (after an edit, a merge, a push) first moves it there, re-indexing only the pages
// that changed, so results always follow the content and never wait for a full rebuild.
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
  /** Matching sections, best first; `snippet()` cuts the body around the terms (done only for
   * the results of the page asked for: a query can match thousands of sections). */
  sections: { id: string; title: string; anchor: string; snippet: () => string }[];
}

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

/** One space's index, at one revision; moved to another revision by re-indexing changed pages. */
interface Built {
  rev: string;
  mini: MiniSearch<SectionDoc>;
  pages: Map<string, { sig: string; ids: string[] }>;
  info: Map<string, { title: string; path: string; ancestors: SearchHit['ancestors'] }>;
}

const newMini = () =>
  new (MiniSearchClass())<SectionDoc>({
    fields: ['pageTitle', 'title', 'body'],
    storeFields: ['page', 'title', 'anchor', 'body'],
    searchOptions: { boost: { pageTitle: 3, title: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'AND' },
  });

/**
 * Brings `b` (or a new index) to revision `rev`: a page whose title, path, ancestors or body
 * hash changed is re-indexed, others are kept. After an edit or a merge this costs the changed
 * pages (plus a walk of the tree), not the whole space.
 */
function update(tx: ReadTx, rev: ContentRevision, b: Built | undefined): Built {
  const built: Built = b ?? { rev: rev.id, mini: newMini(), pages: new Map(), info: new Map() };
  const seen = new Set<string>();
  const add: SectionDoc[] = [];
  for (const l of flatten(treeOf(tx, rev))) {
    if (l.node.type !== 'document' || l.node.noIndex) continue;
    const id = l.node.id;
    seen.add(id);
    const sig = [l.node.title, l.path, l.node.content ?? '', ...l.ancestors.map((a) => a.title)].join('\u0000');
    const had = built.pages.get(id);
    built.info.set(id, { title: l.node.title, path: l.path, ancestors: l.ancestors });
    if (had?.sig === sig) continue;
    for (const doc of had?.ids ?? []) built.mini.discard(doc);
    const docs = sections(l.node.title, markdownOf(tx, rev.space, l.node)).map((sec, i) => ({
      id: `${id}#${i}#${built.rev}`, page: id, pageTitle: l.node.title, path: l.path, anchor: sec.anchor, title: sec.title, body: sec.body,
    }));
    add.push(...docs);
    built.pages.set(id, { sig, ids: docs.map((d) => d.id) });
  }
  for (const [id, p] of built.pages) {
    if (seen.has(id)) continue;
    for (const doc of p.ids) built.mini.discard(doc);
    built.pages.delete(id);
    built.info.delete(id);
  }
  built.mini.addAll(add);
  built.rev = rev.id;
  return built;
}

type Result = ReturnType<MiniSearch<SectionDoc>['search']>[number];

/** A page of the results; its sections are built on first read. */
class Hit implements SearchHit {
  readonly title: string;
  readonly path: string;
  readonly ancestors: SearchHit['ancestors'];
  private built?: SearchHit['sections'];
  constructor(
    readonly page: string,
    p: { title: string; path: string; ancestors: SearchHit['ancestors'] },
    readonly score: number,
    private readonly results: Result[],
  ) {
    this.title = p.title;
    this.path = p.path;
    this.ancestors = p.ancestors;
  }
  get sections(): SearchHit['sections'] {
    return (this.built ??= this.results.map((r) => ({ id: String(r.id).split('#').slice(0, 2).join('#'), title: r.title, anchor: r.anchor, snippet: () => snippet(r.body, r.terms) })));
  }
}

function view(b: Built): SpaceIndex {
  const { mini, info } = b;
  return {
    search(query) {
      // A query can match thousands of sections: per page only its best score and its results
      // are gathered here; a hit's sections are built when read (for the page of hits asked for).
      const byPage = new Map<string, { score: number; results: Result[] }>();
      for (const r of mini.search(query)) {
        if (!info.has(r.page)) continue;
        const e = byPage.get(r.page);
        if (!e) byPage.set(r.page, { score: r.score, results: [r] });
        else {
          if (r.score > e.score) e.score = r.score;
          e.results.push(r);
        }
      }
      const hits: Hit[] = [];
      for (const [page, e] of byPage) hits.push(new Hit(page, info.get(page)!, e.score, e.results));
      return hits.sort((x, y) => y.score - x.score);
    },
  };
}

// The latest index of each space (a few spaces kept), whatever revision it is at.
const CACHE_MAX = 32;
const cache = new Map<string, Built>();

/** The index of a revision: the space's index moved to it (built on first use). */
export function revisionIndex(tx: ReadTx, rev: ContentRevision): SpaceIndex {
  const had = cache.get(rev.space);
  cache.delete(rev.space);
  const b = had?.rev === rev.id ? had : update(tx, rev, had);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(rev.space, b);
  return view(b);
}
