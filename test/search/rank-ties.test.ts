import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/kernel/context.js';
import { indexesOf, searchLimits, searchStats } from '../../src/search/indexes.js';
import { matchExpression, queryWords, searchOrganization } from '../../src/search/service.js';
import { Spaces } from '../../src/spaces/tables.js';
import { SQLITE_PACKAGE } from '../../src/search/worker.js';
import { closeOwnerStore, type OwnerCall, openAsOwner, spaceWithPages } from '../helpers/owner-store.js';
import { random } from '../helpers/sample.js';
import { tempDir } from '../helpers/server.js';

// An organization ranking (src/search/worker.ts `rank`) orders equal scores by page id and section,
// so the rows of the score at its limit must all be read. It read them in a second ranking pass,
// which scored every matching section again (as much as the first: at 200,000 pages every word of
// the bench had 60-2,243 rows of that score); they now come with the first pass when within 8 times
// the rows asked. Checked against the whole ranking computed here from the index file, on random
// text with many equal scores, for every caller's spaces.

const Database = createRequire(import.meta.url)(SQLITE_PACKAGE);

const ORG_SECTIONS = searchLimits.orgSections;
const WORDS = ['alder', 'birch', 'cedar', 'daphne', 'elder', 'fir'];

describe('organization rankings with equal scores at their limit', () => {
  let dir: string;
  let ctx: Context;
  let call: OwnerCall;
  let org: string;

  beforeAll(async () => {
    dir = tempDir('search-ties');
    ({ ctx, call, org } = await openAsOwner(dir, 'gb_api_search_ties_test'));
    const rand = random(28);
    const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
    for (let s = 0; s < 3; s++) {
      const changes: object[] = [];
      for (let i = 0; i < 40; i++) {
        // Short sections of a few words of six: many score alike. Titles of two tokens each.
        const words = (n: number) => Array.from({ length: n }, pick).join(' ');
        const markdown = `${words(1 + Math.floor(rand() * 3))}\n\n## Part ${i}\n\n${words(1 + Math.floor(rand() * 3))}`;
        changes.push({ operation: 'insert_page', title: `Page ${i}`, document: { markdown } });
      }
      // Sections alike: 'juniper' in 20 per space (60 rows of one score), 'larch' in 5 (15).
      for (let i = 0; i < 20; i++) changes.push({ operation: 'insert_page', title: `Same ${i}`, document: { markdown: 'juniper' } });
      for (let i = 0; i < 5; i++) changes.push({ operation: 'insert_page', title: `Like ${i}`, document: { markdown: 'larch' } });
      await spaceWithPages(call, org, `Space ${s}`, changes);
    }
  }, 60_000);

  afterAll(async () => {
    searchLimits.orgSections = ORG_SECTIONS;
    await closeOwnerStore(ctx, dir);
  });

  const spacesOf = async () =>
    (await ctx.store.read((tx) => tx.all(Spaces).filter((r) => r.organization === org))).filter((s) => !s.deletedAt).sort((a, b) => a.id.localeCompare(b.id));

  /** Every matching section of `spaces` scored from the index file, in the order a ranking keeps: the first `limit`. */
  function whole(match: string, spaces: readonly string[], limit: number) {
    const db = new Database(join(dir, 'search', `${org}.sqlite`), { readonly: true });
    try {
      const nos: number[] = db.prepare(`SELECT no FROM spaces WHERE id IN (SELECT value FROM json_each(?))`).pluck().all(JSON.stringify(spaces));
      const rows: [number, number][] = db
        .prepare(`SELECT rowid, bm25(sections, 1.0, 2.0, 3.0) FROM sections WHERE sections MATCH ? AND (rowid >> 32) IN (SELECT value FROM json_each(?))`)
        .raw()
        .all(match, JSON.stringify(nos));
      const pageOf = db.prepare(`SELECT id, first, n FROM pages WHERE first <= ? ORDER BY first DESC LIMIT 1`);
      return rows
        .map(([r, score]) => {
          const p = pageOf.get(r) as { id: string; first: number; n: number };
          expect(r).toBeLessThan(p.first + p.n);
          return { r, score, page: p.id, sec: r - p.first };
        })
        .sort((a, b) => a.score - b.score || (a.page < b.page ? -1 : a.page > b.page ? 1 : a.sec - b.sec))
        .slice(0, limit);
    } finally {
      db.close();
    }
  }

  it('equal the whole ranking, reading the rows of the score at the limit in one pass when they are few', async () => {
    const all = await spacesOf();
    const callers = [all, all.filter((_, i) => i !== 1), all.slice(0, 1)];
    let compared = 0;
    for (const limit of [1, 3, 7, 20]) {
      searchLimits.orgSections = limit;
      for (const query of [...WORDS, 'larch', 'alder birch', 'cedar fir', 'da']) {
        const match = matchExpression(queryWords(query));
        for (const spaces of callers) {
          const ids = spaces.map((s) => s.id);
          const before = searchStats.orgTiePasses;
          const got = (await indexesOf(ctx).rankOrg(org, spaces, match)).rows;
          const expected = whole(match, ids, limit);
          const rows = got.r.map((r, i) => ({ r, score: got.score[i], page: got.page[i], sec: got.sec[i] }));
          expect(rows, `${query} limit ${limit} over ${ids.length} spaces`).toEqual(expected);
          expect(got.space.every((s) => ids.includes(s))).toBe(true);
          // Within 8 times the rows asked: no second pass.
          expect(searchStats.orgTiePasses - before, query).toBe(0);
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('read them in a second pass when more than the first pass holds, with the same result', async () => {
    const all = await spacesOf();
    searchLimits.orgSections = 3; // 60 rows of one score for 'juniper': beyond 8 x 4
    const match = matchExpression(['juniper']);
    const before = searchStats.orgTiePasses;
    const got = (await indexesOf(ctx).rankOrg(org, all, match)).rows;
    expect(searchStats.orgTiePasses - before).toBe(1);
    expect(got.r.map((r, i) => ({ r, score: got.score[i], page: got.page[i], sec: got.sec[i] }))).toEqual(
      whole(
        match,
        all.map((s) => s.id),
        3,
      ),
    );
    // The answer's order: pages of equal scores by id.
    const groups = await searchOrganization(ctx, org, all, 'juniper');
    expect(groups.length).toBeGreaterThan(0);
  });
});
