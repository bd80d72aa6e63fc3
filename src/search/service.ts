import type { Context } from '../kernel/context.js';
import type { SpaceRecord } from '../spaces/model.js';
import { Spaces } from '../spaces/tables.js';
import type { Ranking } from './indexes.js';
import { indexesModule } from './loaded.js';
import type { RowDetails } from './worker.js';

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

const load = () => import('./indexes.js');

/** Closes a context's index files (with its store); nothing to do if nothing opened one. */
export async function closeSearchIndexes(ctx: Context): Promise<void> {
  if (indexesModule.loaded) await (await load()).closeIndexes(ctx);
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
/** Calls of loadStemmer (tests). */
export const stemmerLoads = { asked: 0 };

/**
 * Loads the stemmer (the package `stemmer`, an ES module outside the bundle: its import resolved
 * and evaluated, ~2 ms of CPU), which a search's snippets use. `docs serve`'s warm-up loads it
 * before it is ready (server/warm-up.ts): the search indexer's warm-up search (`warmSearch`)
 * loaded it on the main thread beside the first requests, or the first search did.
 */
export async function loadStemmer(): Promise<void> {
  stemmerLoads.asked++;
  stem ??= (await import('stemmer')).stemmer;
}

/** Runs of warmSearchCode (tests). */
export const searchCodeWarmUps = { runs: 0 };

/**
 * Loads the stemmer and runs, twice, what a search runs on its query's words before it asks an
 * index (`queryWords`, the stemmer of snippets), on words of its own: code, no data. `docs serve`'s
 * warm-up does, before it is ready (server/warm-up.ts). V8 compiles a regular expression to
 * bytecode on its first run and to machine code on its second: `queryWords`' Unicode classes cost a
 * fresh server's first search ~1 ms and its second ~0.4 ms, the stemmer's expressions ~0.5 ms
 * (docs/manual/performance.md, "First requests").
 */
export async function warmSearchCode(): Promise<void> {
  searchCodeWarmUps.runs++;
  await loadStemmer();
  for (let i = 0; i < 2; i++) for (const w of queryWords('Searching indexed sections, relational pages happily')) stem!(w);
}

/**
 * A word of `spaceId`'s index for `docs serve`'s warm-up search (server/warm-up.ts), or null: when
 * no search thread runs or it has work unanswered (its start, the index files opened early: a
 * start never waits for them), when it has not opened the organization's index (it would make a
 * missing file, rebuild an old one), when the space's index is not at its revision (searching it
 * would index it: the warm-up writes nothing), or when the space has no text indexed. Bounded at
 * any size: the space's row, one text row, the organization's indexed revisions (which the first
 * search or the indexer reads anyway).
 */
export async function warmUpSearchWord(ctx: Context, spaceId: string): Promise<string | null> {
  const { indexesOf, searchThreadIdle } = await load();
  if (!searchThreadIdle()) return null;
  const space = await ctx.store.read((tx) => tx.get(Spaces, spaceId));
  if (!space || space.deletedAt) return null;
  const indexes = indexesOf(ctx);
  // From an index the thread has open only (the early start opened the files): a missing one
  // would be made, an old one rebuilt.
  const word = await indexes.sample(space.organization, space.id, true);
  if (!word || (await indexes.behind(space.organization, [space])).length) return null;
  return word;
}

/** Stems of recent words (a search stems every word of its query; popular queries come again). */
const stems = new Map<string, string>();
async function snippetTerms(words: readonly string[]): Promise<string[]> {
  if (!stem) await loadStemmer();
  const stemOf = (w: string) => {
    let s = stems.get(w);
    if (s === undefined) {
      if (stems.size >= 10_000) stems.clear();
      stems.set(w, (s = stem!(w)));
    }
    return s;
  };
  return [...new Set(words.flatMap((w) => [w, stemOf(w)]))];
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

/** A space's part of an organization search: its best page's score and its pages, ranked. */
export interface OrgGroup<S = SpaceRecord> {
  space: S;
  score: number;
  /** The space's pages, best first: rank (one-based, across spaces) and the ranked rows (indexes) of their sections. */
  pages: { page: string; rank: number; rows: number[] }[];
}

/**
 * Ranked rows grouped by space and page. Rows come best first: the first row of a space or page
 * is its best, and pages are ranked (one-based, across spaces) in the order their best row comes.
 */
function group(rows: Ranking['rows']): NonNullable<Ranking['grouped']> {
  const bySpace = new Map<string, Map<string, number[]>>();
  let ranks = 0;
  const rankOf = new Map<string, number>();
  for (let i = 0; i < rows.r.length; i++) {
    const space = rows.space[i]!;
    let pages = bySpace.get(space);
    if (!pages) bySpace.set(space, (pages = new Map()));
    const page = rows.page[i]!;
    let secs = pages.get(page);
    if (!secs) {
      pages.set(page, (secs = []));
      rankOf.set(`${space}/${page}`, ++ranks);
    }
    secs.push(i);
  }
  return [...bySpace].map(([space, pages]) => ({
    space,
    // A space scores as its best page (spaces come in that order).
    score: relevance(rows.score[pages.values().next().value![0]!]!),
    pages: [...pages].map(([page, secs]) => ({ page, rank: rankOf.get(`${space}/${page}`)!, rows: secs })),
  }));
}

/**
 * Searches the spaces `spaces` of an organization (those the caller may read): the pages of
 * its best sections (at most `searchLimits.orgSections`), grouped by space, spaces ranked by
 * their best page, pages by their best section. `groups`: the ranking (no text read yet);
 * `hits(some)`: the hits of some groups (the page of results presented), with their text.
 */
export async function rankOrganization<S extends { id: string; revision: string } = SpaceRecord>(
  ctx: Context,
  org: string,
  spaces: readonly S[],
  query: string,
): Promise<{
  groups: OrgGroup<S>[];
  hits(some: readonly OrgGroup<S>[]): Promise<{ space: S; score: number; hits: SearchHit[] }[]>;
  /**
   * The ranking the groups come from: the same object while the index holds the same rows for
   * the same query and spaces (a cached ranking), a new one otherwise. What is presented from
   * it may be remembered with it (src/kernel/serialized.ts `presentOnce`). Absent: no ranking.
   */
  ranking?: object;
}> {
  const words = queryWords(query);
  if (!words.length || !spaces.length) return { groups: [], hits: async () => [] };
  const match = matchExpression(words);
  const indexes = (await load()).indexesOf(ctx);
  const ranking = await indexes.rankOrg(org, spaces, match);
  const { rows } = ranking;
  // The rows are of `spaces` only (the index was asked about those): grouped once per ranking,
  // and given the caller's entries once per list of them (the same frozen entries of the
  // organization's summary, request after request: 2,000 of them at 200,000 pages).
  ranking.grouped ??= group(rows);
  let groups =
    ranking.groupsOf?.spaces.length === spaces.length && ranking.groupsOf.spaces.every((s, i) => s === spaces[i])
      ? (ranking.groupsOf.groups as OrgGroup<S>[])
      : undefined;
  if (!groups) {
    const byId = new Map(spaces.map((s) => [s.id, s]));
    groups = ranking.grouped.flatMap((g) => {
      const space = byId.get(g.space);
      return space ? [{ space, score: g.score, pages: g.pages }] : [];
    });
    if (spaces.every((s) => Object.isFrozen(s))) ranking.groupsOf = { spaces, groups };
  }
  return {
    groups,
    ranking,
    async hits(some) {
      const wanted = some.flatMap((g) => g.pages.flatMap((p) => p.rows));
      (await load()).searchStats.orgHitRows += wanted.length;
      const details = await indexes.rowDetails(org, ranking, wanted, await snippetTerms(words));
      const at = new Map(wanted.map((i, k) => [i, details[k]]));
      return some.map((g) => ({
        space: g.space,
        score: g.score,
        hits: g.pages.flatMap((p) => {
          let first: RowDetails | undefined;
          const secs: Section[] = [];
          for (const i of p.rows) {
            const d = at.get(i);
            if (!d) continue;
            first ??= d;
            secs.push({ sec: rows.sec[i]!, title: d.title, anchor: d.anchor, snippet: d.snippet, score: rows.score[i]! });
          }
          // A page whose rows are gone (the index changed between ranking and reading): left out.
          return first
            ? [hit(p.page, p.rank, { title: first.pageTitle, description: first.description, path: first.path, ancestors: first.ancestors }, secs)]
            : [];
        }),
      }));
    },
  };
}

/** Every group of an organization search with its hits (`rankOrganization`). */
export async function searchOrganization(
  ctx: Context,
  org: string,
  spaces: readonly SpaceRecord[],
  query: string,
): Promise<{ space: SpaceRecord; score: number; hits: SearchHit[] }[]> {
  const found = await rankOrganization(ctx, org, spaces, query);
  return found.hits(found.groups);
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
 * One organization search of a word of its index, its first page of results read, run by the
 * indexer once its first pass has brought the organization's index current (docs serve): the
 * first search a user makes then finds the index thread started, the file open, its statements
 * prepared, its dictionary read and the code of every step compiled, which otherwise made it
 * 2-3x slower than the next ones (issue 28 item 6). False when the index has no text yet.
 */
export async function warmSearch(ctx: Context, org: string, spaces: readonly { id: string; revision: string }[]): Promise<boolean> {
  const { indexesOf, searchStats } = await load();
  const word = spaces.length ? await indexesOf(ctx).sample(org) : null;
  if (!word) return false; // nothing indexed yet: warmed after a later pass
  const found = await rankOrganization(ctx, org, spaces, word);
  await found.hits(found.groups.slice(0, 10));
  searchStats.warmups++;
  return true;
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
