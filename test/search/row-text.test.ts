import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { stemmer } from 'stemmer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../../src/kernel/context.js';
import { indexesOf, searchLimits, searchThreadCounts } from '../../src/search/indexes.js';
import { matchExpression, queryWords } from '../../src/search/service.js';
import { Spaces } from '../../src/spaces/tables.js';
import { SQLITE_PACKAGE, snippet, type ThreadCounts } from '../../src/search/worker.js';
import { closeOwnerStore, type OwnerCall, openAsOwner, spaceWithPages } from '../helpers/owner-store.js';
import { random } from '../helpers/sample.js';
import { tempDir } from '../helpers/server.js';

// The text of an organization search's rows (src/search/worker.ts `details`, issue 28 item 6):
// each row's text is read by its page's first rowid as the ranking found it (the page is not
// looked up again), inflated through a zlib stream kept per dictionary (`inflaterOf`), its
// snippet made in one pass over the marks and spaces; and a ranking no longer looks up the pages
// of the rows past its limit's score. None of that may change an answer: the answers are
// checked against one made here from the index file alone (the whole ranking, each text inflated
// by `inflateRawSync`, the snippet of the code before), on a store of a few hundred pages with
// links, marks, tables, odd spaces and letters, a page over 64 KB, texts packed with and without
// the dictionary, and more rows of one score than the limit.

const Database = createRequire(import.meta.url)(SQLITE_PACKAGE);

/** The snippet as it was made before (four expressions over each body): what answers must keep. */
function snippetBefore(body: string, terms: readonly string[]): string {
  const text = body
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_>#[\]()!|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const from = Math.max(0, at - 60);
  return (from > 0 ? '…' : '') + text.slice(from, from + 200) + (from + 200 < text.length ? '…' : '');
}

const WORDS = ['heron', 'egret', 'stork', 'crane', 'ibis', 'Ünïcode', 'İstanbul', 'spoonbill', 'bittern'];
const MARKS = [' ', '  ', '\t', '\u00a0', ' - ', ' **', '** ', ' `code` ', ' | ', ' > ', ' _x_ ', ' ( ', ' ) ', '!', ' # ', '\u2028', ' [', '] ', '.'];

describe('the text of organization search rows', () => {
  let dir: string;
  let ctx: Context;
  let call: OwnerCall;
  let org: string;
  const dictFrom = searchLimits.dictFrom;
  const orgSections = searchLimits.orgSections;
  const counts = async (): Promise<ThreadCounts> => searchThreadCounts();
  const delta = (a: ThreadCounts, b: ThreadCounts) =>
    Object.fromEntries(Object.keys(a).map((k) => [k, b[k as keyof ThreadCounts] - a[k as keyof ThreadCounts]])) as unknown as ThreadCounts;

  beforeAll(async () => {
    dir = tempDir('search-row-text');
    // The dictionary made once 16 KB of text are indexed: the first pages' texts are packed
    // without it, the later ones with it.
    searchLimits.dictFrom = 16 * 1024;
    ({ ctx, call, org } = await openAsOwner(dir, 'gb_api_search_row_text_test'));
    const rand = random(6);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const words = (n: number) => Array.from({ length: n }, () => pick(WORDS) + pick(MARKS)).join('');
    for (let s = 0; s < 3; s++) {
      const changes: object[] = [];
      for (let i = 0; i < 70; i++) {
        const link = rand() < 0.5 ? ` see [the ${pick(WORDS)} page](https://example.com/${i}) and ![a ${pick(WORDS)}](img.png)` : '';
        const table = rand() < 0.3 ? `\n\n| ${pick(WORDS)} | ${pick(WORDS)} |\n|---|---|\n| a | b |\n` : '';
        const markdown = `${words(3 + Math.floor(rand() * 40))}${link}${table}\n\n## Part ${pick(WORDS)} ${i}\n\n${words(5 + Math.floor(rand() * 90))}\n\n### Same\n\nwading birds`;
        changes.push({
          operation: 'insert_page',
          title: `Page ${i} ${pick(WORDS)}`,
          description: rand() < 0.5 ? `About ${pick(WORDS)}` : undefined,
          document: { markdown },
        });
      }
      // A page over 64 KB: inflated apart (the kept stream's buffer is 64 KB).
      if (s === 1) changes.push({ operation: 'insert_page', title: 'Long heron page', document: { markdown: `${words(12_000)}\n\nwading birds` } });
      await spaceWithPages(call, org, `Space ${s}`, changes);
    }
  }, 120_000);

  afterAll(async () => {
    searchLimits.dictFrom = dictFrom;
    searchLimits.orgSections = orgSections;
    await closeOwnerStore(ctx, dir);
  });

  const spacesOf = async () => (await ctx.store.read((tx) => tx.all(Spaces).filter((r) => r.organization === org))).filter((s) => !s.deletedAt);

  /**
   * The answer's items as the index file alone makes them: the whole ranking (every matching
   * section scored, equal scores by page id and section), its first `limit` rows grouped by
   * space and page, each text inflated by `inflateRawSync`, snippets as before.
   */
  function expected(query: string, limit: number) {
    const words = queryWords(query);
    const terms = [...new Set(words.flatMap((w) => [w, stemmer(w)]))];
    const db = new Database(join(dir, 'search', `${org}.sqlite`), { readonly: true });
    try {
      const ranked: [number, number][] = db
        .prepare(`SELECT rowid, bm25(sections, 1.0, 2.0, 3.0) FROM sections WHERE sections MATCH ?`)
        .raw()
        .all(matchExpression(words));
      const pageOf = db.prepare(`SELECT id, first, n FROM pages WHERE first <= ? ORDER BY first DESC LIMIT 1`);
      const spaceOf = db.prepare(`SELECT id FROM spaces WHERE no = ?`).pluck();
      const textOf = db.prepare(`SELECT text FROM texts WHERE first = ?`).pluck();
      const dictOf = db.prepare(`SELECT data FROM dict WHERE id = ?`).pluck();
      const rows = ranked
        .map(([r, score]) => {
          const p = pageOf.get(r) as { id: string; first: number; n: number };
          expect(r).toBeLessThan(p.first + p.n);
          return { r, score, page: p.id, first: p.first, sec: r - p.first, space: spaceOf.get(Math.floor(r / 2 ** 32)) as string };
        })
        .sort((a, b) => a.score - b.score || (a.page < b.page ? -1 : a.page > b.page ? 1 : a.sec - b.sec))
        .slice(0, limit);
      const texts = new Map<number, [string, string, string, string, [string, string, string][]]>();
      const text = (first: number) => {
        let t = texts.get(first);
        if (!t) {
          const packed = textOf.get(first) as Buffer;
          const dict = packed[0] ? (dictOf.get(packed[0]) as Buffer) : undefined;
          texts.set(first, (t = JSON.parse(inflateRawSync(packed.subarray(1), dict ? { dictionary: dict } : {}).toString('utf8'))));
        }
        return t!;
      };
      const relevance = (bm25: number) => Math.max(0, -bm25);
      const spaces = new Map<string, Map<string, typeof rows>>();
      for (const row of rows) {
        let pages = spaces.get(row.space);
        if (!pages) spaces.set(row.space, (pages = new Map()));
        pages.set(row.page, [...(pages.get(row.page) ?? []), row]);
      }
      const rankOf = new Map([...new Set(rows.map((x) => `${x.space}/${x.page}`))].map((k, i) => [k, i + 1]));
      return [...spaces].map(([space, pages]) => ({
        id: space,
        score: relevance([...pages.values()][0]![0]!.score),
        pages: [...pages].map(([page, secs]) => {
          const [title, description, path, ancestors] = text(secs[0]!.first);
          return {
            id: page,
            title,
            description,
            path,
            score: relevance(secs[0]!.score),
            rank: rankOf.get(`${space}/${page}`),
            sections: secs.map((x) => {
              const [sTitle, anchor, body] = text(x.first)[4][x.sec]!;
              return {
                id: `${page}#${x.sec}`,
                title: sTitle,
                path: anchor ? `${path}#${anchor}` : path,
                score: relevance(x.score),
                body: snippetBefore(body, terms),
              };
            }),
            ancestors: JSON.parse(ancestors),
          };
        }),
      }));
    } finally {
      db.close();
    }
  }

  /** The answer's items, without the addresses (what `expected` makes). */
  async function answered(query: string) {
    const body = await call('searchOrganizationContent', { path: { organizationId: org }, query: { query, limit: 100 } });
    return body.items.map((s: any) => ({
      id: s.id,
      score: s.score,
      pages: s.pages.map((p: any) => ({ ...p, urls: undefined, sections: p.sections.map((x: any) => ({ ...x, urls: undefined })) })),
    }));
  }
  const strip = (x: unknown) => JSON.parse(JSON.stringify(x));

  it('answers as the whole ranking and the texts of the index file make them, snippets as before', async () => {
    searchLimits.orgSections = 500;
    const before = await counts();
    let rows = 0;
    // One word, two, a prefix, letters that change length in lower case, every page's words
    // (more rows than the limit: those of its score ordered by page id), a rare one.
    for (const query of ['heron', 'egret stork', 'cr', 'İstanbul', 'ünïcode', 'wading', 'birds', 'same', 'spoonbill bittern', 'example']) {
      const got = await answered(query); // first: the index is made by the first search
      const want = expected(query, 500);
      expect(strip(got), query).toEqual(strip(want));
      rows += want.reduce((n, s) => n + s.pages.reduce((m, p) => m + p.sections.length, 0), 0);
    }
    expect(rows).toBeGreaterThan(2000);
    const d = delta(before, await counts());
    // Both kinds of text (with and without the dictionary) and the long page read; the long one
    // apart, every other through the kept streams.
    expect(d.textPages).toBeGreaterThan(400);
    expect(d.inflatedAlone).toBeGreaterThan(0);
    expect(d.inflatedAlone).toBeLessThan(d.textPages / 20);
    expect(d.inflatedReused + d.inflatedAlone).toBeGreaterThanOrEqual(d.textPages);
    const db = new Database(join(dir, 'search', `${org}.sqlite`), { readonly: true });
    try {
      const kinds = db.prepare(`SELECT DISTINCT substr(text, 1, 1) FROM texts`).pluck().all() as Buffer[];
      expect(kinds.map((k) => k[0]).sort()).toEqual([0, 1]);
    } finally {
      db.close();
    }
  });

  it("reads each row's text by the page its ranking found, looking no page up again", async () => {
    searchLimits.orgSections = 500;
    const indexes = indexesOf(ctx);
    const ranking = await indexes.rankOrg(org, await spacesOf(), matchExpression(['egret']));
    const n = ranking.rows.r.length;
    expect(n).toBeGreaterThan(100);
    const before = await counts();
    const got = await indexes.rowDetails(
      org,
      ranking,
      Array.from({ length: n }, (_, i) => i),
      ['egret'],
    );
    const d = delta(before, await counts());
    expect(got.every((x) => x !== null)).toBe(true);
    expect(d.pageLookups).toBe(0);
    expect(d.textPages).toBe(new Set(ranking.rows.r.map((r, i) => r - ranking.rows.sec[i]!)).size);
  });

  it('looks up no page of the rows past the score at its limit', async () => {
    // 'wading' is in every page's last section, alike: hundreds of rows of one score, past a
    // limit of 5 whose rows score better ('wading' in a title too).
    const all = await spacesOf();
    const id = all.find((s) => s.title === 'Space 0')!.id;
    const cr = (await call('createChangeRequest', { path: { spaceId: id }, body: { subject: 'Better' } })).id;
    const changes = Array.from({ length: 5 }, (_, i) => ({ operation: 'insert_page', title: `Wading ${i}`, document: { markdown: 'wading birds' } }));
    await call('updateChangeRequestContent', { path: { spaceId: id, changeRequestId: cr }, query: { compat: false }, body: { changes } });
    await call('mergeChangeRequest', { path: { spaceId: id, changeRequestId: cr } });
    searchLimits.orgSections = 5;
    await indexesOf(ctx).rankOrg(org, await spacesOf(), matchExpression(['warm'])); // the new pages indexed first
    const before = await counts();
    const ranking = await indexesOf(ctx).rankOrg(org, await spacesOf(), matchExpression(['wading']));
    const d = delta(before, await counts());
    expect(ranking.rows.r).toHaveLength(5);
    expect(d.pageLookups).toBe(5);
    expect(strip(await answered('wading'))).toEqual(strip(expected('wading', 5)));
    expect((await answered('wading')).flatMap((s: any) => s.pages.map((p: any) => p.title)).sort()).toEqual(changes.map((c) => c.title));
    // Where the rows of the limit's score cross it, all of them are looked up (their order is by page).
    searchLimits.orgSections = 7;
    const b2 = await counts();
    const seven = await indexesOf(ctx).rankOrg(org, await spacesOf(), matchExpression(['wading']));
    expect(seven.rows.r).toHaveLength(7);
    expect(delta(b2, await counts()).pageLookups).toBeGreaterThan(7);
    expect(strip(await answered('wading'))).toEqual(strip(expected('wading', 7)));
  });

  it('fails on a damaged text as inflateRawSync does, and inflates the next ones through a new stream', async () => {
    searchLimits.orgSections = 500;
    const indexes = indexesOf(ctx);
    const ranking = await indexes.rankOrg(org, await spacesOf(), matchExpression(['stork']));
    const first = ranking.rows.r[0]! - ranking.rows.sec[0]!;
    const file = indexes.where(org).file!;
    const other = new Database(file);
    let damaged: Buffer;
    try {
      other.pragma('busy_timeout = 5000');
      const packed = other.prepare(`SELECT text FROM texts WHERE first = ?`).pluck().get(first) as Buffer;
      expect(packed[0]).toBe(1); // packed with the dictionary
      damaged = Buffer.concat([packed.subarray(0, 1), Buffer.from([0xff, 0xff, 0xff]), packed.subarray(1)]);
      other.prepare(`UPDATE texts SET text = ? WHERE first = ?`).run(damaged, first);
    } finally {
      other.close();
    }
    let message = '';
    const read = new Database(file, { readonly: true });
    try {
      inflateRawSync(damaged.subarray(1), { dictionary: read.prepare(`SELECT data FROM dict WHERE id = 1`).pluck().get() as Buffer });
    } catch (e: any) {
      message = e.message;
    } finally {
      read.close();
    }
    expect(message).not.toBe('');
    const again = await indexes.rankOrg(org, await spacesOf(), matchExpression(['stork']));
    await expect(indexes.rowDetails(org, again, [0], ['stork'])).rejects.toThrow(`search index: ${message}`);
    const before = await counts();
    const got = await indexes.rowDetails(
      org,
      again,
      again.rows.r.map((_, i) => i).filter((i) => again.rows.r[i]! - again.rows.sec[i]! !== first),
      ['stork'],
    );
    expect(got.every((x) => x !== null)).toBe(true);
    const d = delta(before, await counts());
    expect(d.inflatedReused).toBeGreaterThan(10);
    expect(d.inflatedAlone).toBeLessThanOrEqual(1); // the long page
  });

  it("reads the index's spaces once while it is unchanged, again after a write", async () => {
    searchLimits.orgSections = 500;
    const indexes = indexesOf(ctx);
    const rank = async (word: string) => indexes.rankOrg(org, await spacesOf(), matchExpression([word]));
    await rank('heron');
    const before = await counts();
    for (const word of ['egret', 'crane', 'ibis']) expect((await rank(word)).rows.r.length).toBeGreaterThan(0);
    expect(delta(before, await counts()).spacesRead).toBe(0);
    // A new space: indexed by the next search (a write), whose ranking reads the spaces again and finds it.
    const id = (await call('createSpace', { path: { organizationId: org }, body: { title: 'Space new' } })).id;
    const cr = (await call('createChangeRequest', { path: { spaceId: id }, body: { subject: 'Write' } })).id;
    const changes = [{ operation: 'insert_page', title: 'Flamingo', document: { markdown: 'A flamingo beside the herons.' } }];
    await call('updateChangeRequestContent', { path: { spaceId: id, changeRequestId: cr }, query: { compat: false }, body: { changes } });
    await call('mergeChangeRequest', { path: { spaceId: id, changeRequestId: cr } });
    const b2 = await counts();
    expect((await rank('flamingo')).rows.space).toEqual([id]);
    expect(delta(b2, await counts()).spacesRead).toBe(1);
    // Another connection's commit (another process sharing the file): read again.
    const other = new Database(indexes.where(org).file!);
    try {
      other.pragma('busy_timeout = 5000');
      other.prepare(`UPDATE spaces SET version = version + 1 WHERE id = ?`).run(id); // as a write of another process would
    } finally {
      other.close();
    }
    const b3 = await counts();
    await rank('stork');
    expect(delta(b3, await counts()).spacesRead).toBe(1);
  });

  it('makes snippets as before', () => {
    const rand = random(99);
    const parts = [
      'a',
      'Zeta',
      'İ',
      'ß',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '\u00a0',
      '\u2028',
      '\ufeff',
      '[',
      ']',
      '(',
      ')',
      '](',
      '!',
      '`',
      '*',
      '_',
      '>',
      '#',
      '|',
      '-',
      '.',
      ',',
      'heron',
      '[x](y)',
      '![i](u.png)',
      '[a]',
      '(b)',
    ];
    let compared = 0;
    for (let i = 0; i < 20_000; i++) {
      let body = '';
      for (let k = Math.floor(rand() * 80); k > 0; k--) body += parts[Math.floor(rand() * parts.length)];
      if (i % 7 === 0) body = `${'lorem '.repeat(Math.floor(rand() * 60))}${body}${' ipsum'.repeat(Math.floor(rand() * 60))}`;
      const terms = [['heron'], ['zeta', 'a'], ['i̇'], ['nothing'], ['ipsum', 'lorem']][i % 5]!;
      expect(snippet(body, terms), JSON.stringify(body)).toBe(snippetBefore(body, terms));
      compared++;
    }
    expect(compared).toBe(20_000);
  });
});
