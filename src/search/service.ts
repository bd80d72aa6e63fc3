import type { Context } from '../kernel/context.js';
import type { SpaceRecord } from '../spaces/model.js';

// Full-text search of space content. The indexes are SQLite FTS5 databases, one per
// organization, kept by a worker thread beside the store (./indexes.ts, ./worker.ts): they follow each
// space's current revision (a search first re-indexes the pages that changed since), a space's
// search reads its own rows, and an organization's search is one ranked query returning its
// best sections, however many spaces it has. This module is what the operations see; the index
// code (and SQLite, in its thread) is loaded on the first search, not by every command.
//
// A page is indexed as sections split at its headings (page title, section title and body,
// weighted 3, 2, 1); a query's words are all required, each as a prefix, matched after Porter
// stemming (`refunds` finds `refund`). Results are pages ranked by their best section, with
// their matching sections (heading title and a snippet of the body around the words).

export interface SearchHit {
  page: string;
  title: string;
  /** The page's description ('' when it has none), as indexed with the page. */
  description: string;
  path: string;
  ancestors: { id: string; title: string }[];
  /**
   * The engine's own ranking (0.202.0's `score` and `rank`): `score`, the relevance of the page's
   * best section (the opposite of its FTS5 bm25, title 3 / heading 2 / body 1: higher is better,
   * unbounded); `rank`, the page's one-based position among all the pages found (kept across
   * pagination and grouping by space).
   */
  score: number;
  rank: number;
  /** Matching sections, best first, with a piece of their body around the words, and their score. */
  sections: { id: string; title: string; anchor: string; score: number; snippet: () => string }[];
}

/** bm25 is negative, lower for better matches: its opposite, never below 0, is the score. */
const relevance = (bm25: number) => Math.max(0, -bm25);

let loaded = false;
const load = () => ((loaded = true), import('./indexes.js'));

/** Closes a context's index files (with its store); nothing to do if it never searched. */
export async function closeSearchIndexes(ctx: Context): Promise<void> {
  if (loaded) await (await load()).closeIndexes(ctx);
}

/** The query's words (letters and digits, as the index tokenizes). */
export const queryWords = (query: string): string[] => query.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];

/**
 * The FTS5 expression of a query: every word required, each quoted (no operator syntax reaches
 * SQLite) and a prefix from two characters on, as people type. Empty when there is no word.
 */
export function matchExpression(words: readonly string[]): string {
  return words.map((w) => `"${w}"${w.length >= 2 ? '*' : ''}`).join(' AND ');
}

let stem: ((w: string) => string) | undefined;
async function snippetTerms(words: readonly string[]): Promise<string[]> {
  stem ??= (await import('stemmer')).stemmer;
  return [...new Set(words.flatMap((w) => [w, stem!(w)]))];
}

type Section = { sec: number; title: string; anchor: string; snippet: string; score: number };

function hit(page: string, rank: number, p: { title: string; description: string; path: string; ancestors: string }, secs: Section[]): SearchHit {
  return {
    page,
    title: p.title,
    description: p.description,
    path: p.path,
    ancestors: JSON.parse(p.ancestors),
    score: relevance(secs[0]?.score ?? 0),
    rank,
    sections: secs.map((s) => ({ id: `${page}#${s.sec}`, title: s.title, anchor: s.anchor, score: relevance(s.score), snippet: () => s.snippet })),
  };
}

/**
 * Searches a space at its current revision. `pages`: every matching page, best first (ids);
 * `hits(ids)`: the hits of some of them (the page of results presented).
 */
export async function searchSpace(ctx: Context, space: SpaceRecord, query: string) {
  const words = queryWords(query);
  if (!words.length) return { pages: [] as string[], hits: async () => [] as SearchHit[] };
  const match = matchExpression(words);
  const indexes = (await load()).indexesOf(ctx);
  const { ids, rowids, scores } = await indexes.searchSpace(space.organization, space, match);
  const at = new Map(ids.map((id, i) => [id, i]));
  return {
    pages: ids,
    async hits(some: string[]): Promise<SearchHit[]> {
      if (!some.length) return [];
      const details = await indexes.details(
        space.organization,
        space.id,
        await snippetTerms(words),
        some.map((id) => [id, rowids[at.get(id)!]!]),
      );
      return some.flatMap((id, i) => {
        const d = details[i];
        if (!d) return [];
        const n = at.get(id)!;
        const scoreOf = new Map(rowids[n]!.map((r, k) => [r, scores[n]![k]!]));
        return [
          hit(
            id,
            n + 1,
            d,
            d.sections.map((sec) => ({ ...sec, score: scoreOf.get(sec.rowid) ?? 0 })),
          ),
        ];
      });
    },
  };
}

/**
 * Searches the spaces `spaces` of an organization (those the caller may read): the pages of
 * its best sections (at most `searchLimits.orgSections`), grouped by space, spaces ranked by
 * their best page, pages by their best section.
 */
export async function searchOrganization(
  ctx: Context,
  org: string,
  spaces: readonly SpaceRecord[],
  query: string,
): Promise<{ space: SpaceRecord; score: number; hits: SearchHit[] }[]> {
  const words = queryWords(query);
  if (!words.length || !spaces.length) return [];
  const match = matchExpression(words);
  const indexes = (await load()).indexesOf(ctx);
  const rows = await indexes.searchOrg(org, spaces, match, await snippetTerms(words));
  const byId = new Map(spaces.map((s) => [s.id, s]));
  // Rows come best first: the first row of a space or page is its best, and pages are ranked
  // (one-based, across spaces) in the order their best row comes.
  const bySpace = new Map<string, Map<string, typeof rows>>();
  const rankOf = new Map<string, number>();
  for (const r of rows) {
    if (!byId.has(r.space)) continue;
    let pages = bySpace.get(r.space);
    if (!pages) bySpace.set(r.space, (pages = new Map()));
    let secs = pages.get(r.page);
    if (!secs) {
      pages.set(r.page, (secs = []));
      rankOf.set(`${r.space}/${r.page}`, rankOf.size + 1);
    }
    secs.push(r);
  }
  return [...bySpace].map(([id, pages]) => {
    const hits = [...pages].map(([page, secs]) =>
      hit(
        page,
        rankOf.get(`${id}/${page}`)!,
        { title: secs[0]!.pageTitle, description: secs[0]!.description, path: secs[0]!.path, ancestors: secs[0]!.ancestors },
        secs,
      ),
    );
    // A space scores as its best page (spaces come in that order).
    return { space: byId.get(id)!, score: hits[0]?.score ?? 0, hits };
  });
}

/** A section found for a question: where it is and its text (src/ask builds answers from these). */
export interface Passage {
  space: SpaceRecord;
  page: string;
  pageTitle: string;
  path: string;
  /** The section's title (the page's own title for the text before its first heading), anchor and number in the page. */
  title: string;
  anchor: string;
  sec: number;
  /** The section's markdown (its first `bodyMax` characters). */
  body: string;
  score: number;
}

/**
 * The best sections of the spaces `spaces` of an organization for a question's words: any of the
 * words may match (a question is not a query: it is rare that one section holds every word of
 * it), ranked by the engine (bm25: sections holding more of the words, and rarer ones, first).
 * At most `limit` sections, each with its body. docs/manual/ask.md#how-an-answer-is-built
 */
export async function searchPassages(
  ctx: Context,
  org: string,
  spaces: readonly SpaceRecord[],
  words: readonly string[],
  opts: { limit?: number; bodyMax?: number } = {},
): Promise<Passage[]> {
  const unique = [...new Set(words.map((w) => w.toLowerCase()).filter((w) => /^[\p{L}\p{N}\p{M}]+$/u.test(w)))];
  if (!unique.length || !spaces.length) return [];
  const match = unique.map((w) => `"${w}"${w.length >= 2 ? '*' : ''}`).join(' OR ');
  const indexes = (await load()).indexesOf(ctx);
  const rows = await indexes.searchOrg(org, spaces, match, await snippetTerms(unique), { limit: opts.limit ?? 20, bodyMax: opts.bodyMax ?? 4000 });
  const byId = new Map(spaces.map((s) => [s.id, s]));
  return rows.flatMap((r) => {
    const space = byId.get(r.space);
    if (!space) return [];
    return [
      {
        space,
        page: r.page,
        pageTitle: r.pageTitle,
        path: r.path,
        title: r.title,
        anchor: r.anchor,
        sec: r.sec,
        body: r.body ?? '',
        score: relevance(r.score),
      },
    ];
  });
}

/**
 * Brings the indexes of `spaces` (of `org`) to their current revisions, searching nothing: the
 * next search of them reads only (prewarmSiteSearch).
 */
export async function warmSpaces(ctx: Context, org: string, spaces: readonly SpaceRecord[]): Promise<void> {
  if (!spaces.length) return;
  const indexes = (await load()).indexesOf(ctx);
  await indexes.retrying(org, () => indexes.ensure(org, spaces));
}
