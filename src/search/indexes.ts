import { contextBase } from '../kernel/context.js';
import { orgSpaces } from '../tree/order.js';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import { indexesModule } from './loaded.js';
import type { PageNode, PageNodeRecord } from '../content/model.js';
import { markdownOf, rootOf } from '../content/revisions.js';
import {
  SQLITE_PACKAGE,
  workerSource,
  type IndexedPage,
  type RankedRows,
  type RawHit,
  type RowDetails,
  type SectionRow,
  type ThreadCounts,
  type WalkedPage,
  type WorkerInit,
} from './worker.js';
import { createHash } from 'node:crypto';
import { nodeRow } from '../content/nodes.js';
import { Revisions, Spaces } from '../spaces/tables.js';

// The search indexes of a context: SQLite FTS5 databases kept by one worker thread
// (src/search/worker.ts), one per organization, beside the store (`<data>/search/<org>.sqlite`)
// or in memory. Derived data: a missing, damaged or older file is rebuilt, never an error.
//
// A space's index records the revision it is at. A search first brings the spaces it reads to
// their current revision (`ensure`): the revision's page tree is walked from its node rows, a
// few hundred at a time, and the thread answers which pages' title or body hash changed since
// the indexed state; only those pages' bodies are read and indexed again, and pages no longer
// in the tree are removed. Every step is a short store read or a message to the thread, with
// the event loop given back between steps (`Slicer`), so indexing a 50,000-page space never
// holds other requests for more than a few milliseconds: the heavy part (FTS inserts, ranking)
// runs on the thread.
//
// Why SQLite FTS5 rather than MiniSearch's JSON (measured on the bench text, 20,000 pages): one
// MiniSearch for an organization took 17 s to build, 58 MB of JSON, 8 s to load and 800 MB of
// heap, and a query ran 37 ms median, 355 ms worst, on the event loop in one piece (it cannot be
// sliced); per-space MiniSearch indexes make an organization search load and query every space.
// FTS5 keeps the index on disk, ranks in C on the thread (the same queries: 12 ms median through
// the whole operation, 38 ms at 200,000 pages) and adds and removes pages in place.
//
// Several processes may share the files (a PostgreSQL store with one blobs directory): SQLite
// locks them; each write to a space bumps its version, and an update that finds the version
// moved by someone else starts again (its diff then finds what the other process did).

/** Bumped when the tables or what they hold change: older files are rebuilt. */
indexesModule.loaded = true; // ./loaded.ts

const SCHEMA = 8; // 2: pages carry their description (search results show it); 3: contentless FTS5, bodies deflated in secs; 4: bodies apart from secs; 5: the body the FTS5 table's first column; 6: a page's sections in one row (texts), compressed with the index's dictionary, no secs; 7: pages keep digests, their text in texts; 8: the spaces each dictionary was made from (dict_sources)

/** Work counters (tests and measurements). */
export const searchStats = {
  /** Pages whose text was (re)indexed. */
  pagesIndexed: 0,
  /** Pages walked to diff a space against its index. */
  pagesWalked: 0,
  /** Times indexing gave the event loop back. */
  slices: 0,
  /** Space updates completed (a space brought to a revision). */
  updates: 0,
  /** Organization searches, the indexes they queried and the rows those returned. */
  orgQueries: 0,
  orgIndexes: 0,
  orgRows: 0,
  /** Spaces removed from an index (purged, or moved to another organization). */
  spacesDropped: 0,
  /** Organization searches answered from a cached ranking (the index had not changed). */
  orgCached: 0,
  /** Ranked rows of organization searches whose text (snippet, page title and path) was read. */
  orgTextRows: 0,
  /** Spaces whose indexed revision a search compared with the space's (`ensure`). */
  spacesChecked: 0,
  /** Ranked rows of organization searches made into hits (their text, titles and scores) for an answer. */
  orgHitRows: 0,
  /** Organization searches the indexer ran to warm the paths a search takes (service.ts `warmSearch`). */
  warmups: 0,
  /** Organization rankings whose rows of the score at the limit took a second ranking pass (src/search/worker.ts `rank`). */
  orgTiePasses: 0,
  /** Organization rankings answered from the one the thread made when it opened the file early (the warm-up search's). */
  orgKept: 0,
  /** Index files the thread opened when it was started early (`startSearchThread`, docs serve). */
  filesPreopened: 0,
};

/** Bounds (tests may lower them). */
export const searchLimits = {
  /** The best sections an organization search ranks (its hits are the pages of these). */
  orgSections: 500,
  /** Longest stretch of indexing work on the event loop before it is given back. */
  sliceMs: 5,
  /** Page nodes read per store read while walking a tree; pages diffed per message. */
  walkBatch: 500,
  /** Page bodies read and sent to the thread per step. */
  textBatch: 100,
  /** Spaces brought up to date at a time by one organization search. */
  spacesAtOnce: 4,
  /** An organization search looks for spaces gone from the organization at most this often. */
  sweepMs: 10 * 60_000,
  /** Rankings of organization searches kept per context (the most recent ones), with the text of their rows read. */
  rankings: 32,
  /** Bytes of text an index is given before the dictionary its texts are compressed with is made from them. */
  dictFrom: 64 * 1024,
};

// ---------------------------------------------------------------------------------------------
// The thread: started on the first search of the process, shared by its contexts. It keeps the
// process alive only while a request to it is pending.

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>;
  next: number;
}
let thread: Thread | undefined;
/** Bumped when a thread starts: a new thread has lost what an old one held in memory. */
let generation = 0;
let startedAt: number | undefined;

/**
 * Whether the search thread runs with nothing asked of it unanswered: started early by `docs serve`,
 * it has opened the index files and made its early ranking (`startSearchThread`). A call now is
 * answered at once rather than behind those (tens to hundreds of ms at 200,000 pages).
 */
export const searchThreadIdle = (): boolean => thread !== undefined && thread.pending.size === 0;

/** When the running search thread was started (performance.now()); undefined when none runs. */
export const searchThreadStartedAt = (): number | undefined => (thread ? startedAt : undefined);

class IndexReset extends Error {}

/** An organization search's ranking (`rankOrg`), and the text of its rows once read (by rowid). */
export interface Ranking {
  version: string;
  rows: NonNullable<RankedRows['rows']>;
  details: Map<number, RowDetails | null>;
  /** Its rows grouped by space and page (src/search/service.ts), once grouped. */
  grouped?: { space: string; score: number; pages: { page: string; rank: number; rows: number[] }[] }[];
  /** The groups with the entries of the spaces of the last list they were given for (frozen entries, compared by reference). */
  groupsOf?: { spaces: readonly object[]; groups: readonly unknown[] };
}

function start(): Thread {
  const require = createRequire(import.meta.url);
  const init: WorkerInit = { sqlite: require.resolve(SQLITE_PACKAGE), schema: SCHEMA };
  const worker = new Worker(workerSource(), { eval: true, workerData: init });
  generation++;
  startedAt = performance.now();
  const t: Thread = { worker, pending: new Map(), next: 1 };
  worker.unref();
  const fail = (err: Error) => {
    if (thread === t) thread = undefined;
    for (const p of t.pending.values()) p.reject(err);
    t.pending.clear();
  };
  worker.on('message', (m: { id: number; result?: unknown; error?: { message: string; code?: string; reset?: boolean } }) => {
    const p = t.pending.get(m.id);
    if (!p) return;
    t.pending.delete(m.id);
    if (!t.pending.size) worker.unref();
    if (!m.error) p.resolve(m.result);
    else p.reject(m.error.reset ? new IndexReset(m.error.message) : Object.assign(new Error(`search index: ${m.error.message}`), { code: m.error.code }));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`search index thread exited (${code})`)));
  return t;
}

function call<T>(op: string, ...args: unknown[]): Promise<T> {
  const t = (thread ??= start());
  return new Promise<T>((resolve, reject) => {
    const id = t.next++;
    if (!t.pending.size) t.worker.ref();
    t.pending.set(id, { resolve, reject });
    t.worker.postMessage({ id, op, args });
  });
}

/**
 * Starts the search thread now, if none runs, and has it open the index files of the data
 * directory `dataDir` and rank the warm-up search's word in each: `docs serve` calls it before it
 * opens the store, so that the thread's start (a worker, SQLite's module: 65–70 ms), the files'
 * opening and the warm-up's ranking run beside the store's opening rather than between ready and
 * the first search (issue 28 item 6; docs/manual/performance.md). The indexer's warm-up search
 * after ready (service.ts `warmSearch`) is answered from that ranking while the index is unchanged.
 */
export function startSearchThread(dataDir: string): void {
  if (thread) return;
  // Only for a directory with index files: a new or unsearched one starts the thread on its
  // first search, as before (its start beside the store's opening made ready ~40 ms later).
  let files: string[];
  try {
    const dir = join(dataDir, 'search');
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.sqlite'))
      .map((f) => join(dir, f));
  } catch {
    return;
  }
  if (!files.length) return;
  thread = start();
  call<number>('preopen', files, searchLimits.orgSections).then(
    (n) => {
      searchStats.filesPreopened += n;
    },
    () => {}, // derived data: the first search opens them
  );
}

/** The search thread's work counters (`ThreadCounts`: tests and measurements); starts it if none runs. */
export const searchThreadCounts = (): Promise<ThreadCounts> => call<ThreadCounts>('counts');

/**
 * Closes the thread's index files, then ends it: SQLite removes a file's `-wal` and `-shm` when
 * its last connection closes, so a start that failed after the thread opened them (`docs serve`
 * on a damaged store, `startSearchThread`) leaves the data directory as it found it.
 */
export async function closeSearchThread(): Promise<void> {
  if (thread) await call('close', '').catch(() => {});
  await stopSearchThread();
}

/** Ends the search thread (tests: the next call starts a new one, as in a fresh process). */
export async function stopSearchThread(): Promise<void> {
  const t = thread;
  thread = undefined;
  await t?.worker.terminate();
}

// ---------------------------------------------------------------------------------------------
// Giving the event loop back.

/** Tracks one task's time on the event loop; `breathe` yields once it has run `sliceMs`. */
class Slicer {
  private since = performance.now();
  /** Call after an await that let other work run (a message to the thread). */
  reset() {
    this.since = performance.now();
  }
  async breathe(): Promise<void> {
    if (performance.now() - this.since < searchLimits.sliceMs) return;
    searchStats.slices++;
    await new Promise((r) => setImmediate(r));
    this.since = performance.now();
  }
}

// ---------------------------------------------------------------------------------------------
// Sections: a page split at its headings.

const anchorOf = (t: string) =>
  t
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Splits a body at its ATX headings (outside code fences) into titled sections. */
export function sections(title: string, markdown: string): SectionRow[] {
  const out = [{ title, anchor: '', body: [] as string[] }];
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = !fence && /^#{1,6}\s+(.+?)\s*#*$/.exec(line);
    if (h) out.push({ title: h[1]!, anchor: anchorOf(h[1]!), body: [] });
    else out[out.length - 1]!.body.push(line);
  }
  return out
    .map((s) => ({ ...s, body: s.body.join('\n').trim() }))
    .filter((s, i) => i === 0 || s.body || s.title)
    .map((s) => [s.title, s.anchor, s.body]);
}

/** What decides whether a page's text must be indexed again: its body hash (with its title and description, sent apart). */
const sigOf = (node: Pick<PageNode, 'content'>) => node.content ?? '';

// ---------------------------------------------------------------------------------------------
// The indexes of one context.

interface Walked {
  row: WalkedPage;
  node: Omit<PageNode, 'pages'>;
}

const CONFLICT = Symbol('conflict');
const MAX_ATTEMPTS = 5;
let memoryIds = 0;
const closeMemory = new FinalizationRegistry<string>((prefix) => {
  if (thread) call('close', prefix).catch(() => {});
});

class Indexes {
  /** Per database: space id -> the revision its index is at (as last read or written here). */
  private readonly revs = new Map<string, Promise<Map<string, string | null>>>();
  private generation = generation;
  /** Updates running, by space: a second search of the space waits for the first's. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly memory?: string;
  private readonly swept = new Map<string, number>();
  /** Recent rankings of organization searches, by database, query and spaces, with the index state they hold for. */
  private readonly rankings = new Map<string, Ranking>();
  private sweeping?: Promise<unknown>;
  private closed = false;

  constructor(private readonly ctx: Context) {
    if (!ctx.dataDir) {
      this.memory = `mem:${++memoryIds}:`;
      closeMemory.register(ctx, this.memory, this);
    }
  }

  /** The database of an organization: its key in the thread and its file (null: in memory). */
  where(org: string): { key: string; file: string | null } {
    if (this.memory) return { key: this.memory + org, file: null };
    const name = /^[A-Za-z0-9_-]{1,100}$/.test(org) ? org : Buffer.from(org).toString('base64url').slice(0, 200);
    const file = join(this.ctx.dataDir!, 'search', `${name}.sqlite`);
    return { key: file, file };
  }

  /** Closes this context's databases (the store is closing). */
  async close(): Promise<void> {
    this.closed = true;
    await this.sweeping;
    this.revs.clear();
    if (!thread) return;
    if (this.memory) closeMemory.unregister(this);
    await call('close', this.memory ?? join(this.ctx.dataDir!, 'search') + '/');
  }

  private known(org: string): Promise<Map<string, string | null>> {
    thread ??= start();
    if (this.generation !== generation) {
      this.revs.clear(); // what this context knew was about the thread's predecessor
      this.rankings.clear();
      this.generation = generation;
    }
    const { key, file } = this.where(org);
    let m = this.revs.get(key);
    if (!m) {
      m = call<[string, string | null][]>('revs', key, file).then((rows) => new Map(rows));
      this.revs.set(key, m);
      m.catch(() => this.revs.delete(key));
    }
    return m;
  }

  /** Runs `fn`; once more if the thread found the database damaged (dropped, rebuilt on use). */
  async retrying<R>(org: string, fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof IndexReset)) throw err;
      this.revs.delete(this.where(org).key);
      return fn();
    }
  }

  /** The spaces of `spaces` (of `org`) whose index is not at the given revision. */
  async behind<S extends { id: string; revision: string }>(org: string, spaces: readonly S[]): Promise<S[]> {
    const known = await this.known(org);
    return spaces.filter((s) => known.get(s.id) !== s.revision);
  }

  /**
   * The list of spaces last found current, per database: its entries (by reference), the map of
   * revisions it was checked against and that map's changes then (`changes`), and the digest of
   * its ids (rankOrg's cache key). An organization search of 2,000 spaces checked every space's
   * revision and hashed every id on every request; the organization's summary gives the same
   * frozen entries while nothing changed (src/store/summaries.ts), so the same list is known
   * current by comparing references.
   */
  private readonly checked = new Map<string, { spaces: readonly object[]; known: Map<string, string | null>; changes: number; ids?: string }>();
  /** Bumped on every change of a map of revisions (`known`). */
  private changes = 0;

  /** The list `spaces` as last found current (`checked`), if it is that list and nothing changed since. */
  private checkedList(key: string, known: Map<string, string | null>, spaces: readonly object[]) {
    const last = this.checked.get(key);
    if (!last || last.known !== known || last.changes !== this.changes || last.spaces.length !== spaces.length) return undefined;
    for (let i = 0; i < spaces.length; i++) if (last.spaces[i] !== spaces[i]) return undefined;
    return last;
  }

  /** Brings the indexes of `spaces` (of `org`) to their current revisions. */
  async ensure(org: string, spaces: readonly { id: string; revision: string }[]): Promise<void> {
    const behind: { id: string; revision: string }[] = [];
    const known = await this.known(org);
    const { key } = this.where(org);
    if (this.checkedList(key, known, spaces)) return;
    for (const s of spaces) if (known.get(s.id) !== s.revision) behind.push(s);
    searchStats.spacesChecked += spaces.length;
    // Remembered when every one is current, and only for frozen entries (ones that cannot change
    // while they are the same objects); checked again otherwise.
    if (!behind.length && spaces.length > 1 && spaces.every((s) => Object.isFrozen(s))) this.checked.set(key, { spaces, known, changes: this.changes });
    // A few spaces at a time: their store reads and the thread's inserts overlap.
    let next = 0;
    const run = async () => {
      while (next < behind.length) {
        const s = behind[next++]!;
        await this.ensureOne(org, s.id, s.revision);
      }
    };
    await Promise.all(Array.from({ length: Math.min(behind.length, searchLimits.spacesAtOnce) }, run));
  }

  private async ensureOne(org: string, space: string, rev: string): Promise<void> {
    for (;;) {
      const known = await this.known(org);
      if (known.get(space) === rev) return;
      const other = this.running.get(space);
      if (other) {
        await other.catch(() => {});
        continue;
      }
      const p = this.update(org, space, rev).finally(() => this.running.delete(space));
      this.running.set(space, p);
      await p;
      return;
    }
  }

  /**
   * Moves a space's index to its current revision (`asked` when the space is gone): the changed
   * pages indexed, the gone ones removed. Never to `asked` itself when the space moved on: the
   * indexer's pass asks for the revisions it read when it began, and a search's update may have
   * brought the space further since; an update to the older revision put the index back under it,
   * and a search that found the newer revision known while that update ran answered from the old
   * pages (an organization search missing a page merged before it).
   */
  private async update(org: string, space: string, asked: string): Promise<void> {
    const { key, file } = this.where(org);
    const slice = new Slicer();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const revId = await this.ctx.store.read((tx) => {
        const row = tx.get(Spaces, space);
        return row?.revision ?? asked;
      });
      if ((await this.known(org)).get(space) === revId) return;
      const { session } = await call<{ session: number }>('begin', key, file, space);
      let done = false;
      try {
        await this.walk(space, revId, slice, async (batch) => {
          const r = await call<{ need?: string[]; conflict?: true }>(
            'walk',
            session,
            batch.map((b) => b.row),
          );
          slice.reset();
          if (r.conflict) throw CONFLICT;
          const need = new Set(r.need);
          const todo = batch.filter((b) => need.has(b.row[0]));
          for (let i = 0; i < todo.length; i += searchLimits.textBatch) await this.index(session, space, todo.slice(i, i + searchLimits.textBatch), slice);
        });
        for (;;) {
          const r = await call<{ left?: number; conflict?: true }>('prune', session, 2000);
          if (r.conflict) throw CONFLICT;
          if (!r.left) break;
        }
        done = (await call<{ ok: boolean }>('end', session, revId)).ok;
      } catch (err) {
        if (!done) await call('end', session, null).catch(() => {});
        if (err !== CONFLICT) throw err;
      }
      if (done) {
        (await this.known(org)).set(space, revId);
        this.changes++;
        searchStats.updates++;
        return;
      }
    }
    throw new DocsError('unavailable', `the search index of space ${space} is being changed by another process: try again`);
  }

  /** Reads the bodies of `pages`, splits them into sections and sends them to the thread. */
  private async index(session: number, space: string, pages: Walked[], slice: Slicer) {
    const bodies = await this.ctx.store.read((tx) => pages.map((p) => markdownOf(tx, space, p.node as PageNode)));
    const docs: IndexedPage[] = [];
    for (let i = 0; i < pages.length; i++) {
      docs.push([...pages[i]!.row, sections(pages[i]!.node.title, bodies[i]!)]);
      await slice.breathe();
    }
    const r = await call<{ conflict?: true }>('index', session, docs, searchLimits.dictFrom);
    slice.reset();
    if (r.conflict) throw CONFLICT;
    searchStats.pagesIndexed += pages.length;
  }

  /**
   * Walks a revision's page tree from its node rows (depth first, in tree order), a batch of
   * rows per store read, handing the indexable pages (documents not marked noIndex) to `batch`.
   */
  private async walk(space: string, revId: string, slice: Slicer, batch: (pages: Walked[]) => Promise<void>) {
    const roots = await this.ctx.store.read((tx) => {
      const rev = tx.get(Revisions, revId);
      if (!rev || rev.space !== space) throw new DocsError('not_found', `revision ${revId} not found in space ${space}`);
      return rootOf(tx, rev);
    });
    interface Frame {
      hash: string;
      prefix: string;
      ancestors: { id: string; title: string }[];
      json: string;
    }
    const stack: Frame[] = roots.map((hash) => ({ hash, prefix: '', ancestors: [], json: '[]' })).reverse();
    const rows = new Map<string, PageNodeRecord>();
    let out: Walked[] = [];
    while (stack.length) {
      if (!rows.has(stack[stack.length - 1]!.hash)) {
        const want: string[] = [];
        for (let i = stack.length - 1; i >= 0 && want.length < searchLimits.walkBatch; i--) if (!rows.has(stack[i]!.hash)) want.push(stack[i]!.hash);
        const got = await this.ctx.store.read((tx) => want.map((h) => nodeRow(tx, space, h)));
        got.forEach((row, i) => {
          if (!row) throw new Error(`page node ${want[i]} of space ${space} is missing`);
          rows.set(want[i]!, row);
        });
      }
      const f = stack.pop()!;
      const row = rows.get(f.hash)!;
      rows.delete(f.hash);
      const node = row.node;
      const path = f.prefix ? `${f.prefix}/${node.slug}` : node.slug;
      searchStats.pagesWalked++;
      if (node.type === 'document' && !node.noIndex) out.push({ row: [node.id, sigOf(node), node.title, path, f.json, node.description ?? ''], node });
      if (row.children.length) {
        const ancestors = [...f.ancestors, { id: node.id, title: node.title }];
        const json = JSON.stringify(ancestors);
        for (let i = row.children.length - 1; i >= 0; i--) stack.push({ hash: row.children[i]!, prefix: path, ancestors, json });
      }
      if (out.length >= searchLimits.walkBatch) {
        await batch(out);
        out = [];
      }
      await slice.breathe();
    }
    if (out.length) await batch(out);
  }

  /**
   * Every page of the space matching, best first, once its index is current: page ids, and the
   * rowids of each one's matching sections (for `details`).
   */
  async searchSpace(org: string, space: { id: string; revision: string }, match: string): Promise<{ ids: string[]; rowids: number[][]; scores: number[][] }> {
    return this.retrying(org, async () => {
      await this.ensure(org, [space]);
      const { key, file } = this.where(org);
      return call<{ ids: string[]; rowids: number[][]; scores: number[][] }>('searchSpace', key, file, space.id, match);
    });
  }

  /** The details (title, path, ancestors, sections with snippets) of found pages of a space. */
  async details(org: string, space: string, terms: string[], pages: [string, number[]][]) {
    const { key, file } = this.where(org);
    return call<
      ({
        title: string;
        path: string;
        ancestors: string;
        description: string;
        sections: { rowid: number; sec: number; title: string; anchor: string; snippet: string }[];
      } | null)[]
    >('details', key, file, space, terms, pages);
  }

  /**
   * The best sections of the organization's spaces `spaces` (all of them current first), best
   * first, without their text (`rowDetails`): one ranked query on the organization's index, at
   * most `searchLimits.orgSections` rows; or, when the index has not changed since the same
   * search (same query and spaces), that search's ranking, kept here: the thread is asked only
   * whether its database is still at that state (a query over every matching section of a big
   * organization costs tens of milliseconds; popular queries come again and again).
   */
  async rankOrg(org: string, spaces: readonly { id: string; revision: string }[], match: string): Promise<Ranking> {
    return this.retrying(org, async () => {
      await this.ensure(org, spaces);
      const { key, file } = this.where(org);
      let ids: string[] | undefined;
      const idsOf = () => (ids ??= spaces.map((s) => s.id));
      const limit = searchLimits.orgSections;
      const list = this.checkedList(key, await this.known(org), spaces);
      const digest = list?.ids ?? createHash('sha1').update(idsOf().join(',')).digest('base64');
      if (list) list.ids = digest;
      const cacheKey = `${key}\0${limit}\0${match}\0${digest}`;
      const cached = this.rankings.get(cacheKey);
      // A cached ranking: first only the database's state asked (a short message: not the ids
      // of every space, 40 KB in an organization of 2,000).
      const got: RankedRows =
        cached && (await call<string>('stamp', key, file)) === cached.version
          ? { version: cached.version }
          : await call<RankedRows>('rankOrg', key, file, match, idsOf(), limit, cached?.version);
      this.afterOrgSearch(org);
      let ranking: Ranking;
      if (cached && !got.rows && got.version === cached.version) {
        searchStats.orgCached++;
        ranking = cached;
      } else {
        ranking = { version: got.version, rows: got.rows!, details: new Map() };
        searchStats.orgQueries++;
        searchStats.orgIndexes++;
        searchStats.orgRows += ranking.rows.r.length;
        if (got.tiePass) searchStats.orgTiePasses++;
        if (got.kept) searchStats.orgKept++;
      }
      this.rankings.delete(cacheKey); // the most recently used last
      this.rankings.set(cacheKey, ranking);
      while (this.rankings.size > searchLimits.rankings) this.rankings.delete(this.rankings.keys().next().value!);
      return ranking;
    });
  }

  /**
   * The text of ranked sections (the rows `at` of `ranking`, by their index in it): titles,
   * anchors, snippets around `terms` (the ranking's query's), their pages'. Read once per
   * ranking: a cached ranking has them. The thread is given each row's page (its first rowid:
   * rowid − section number), which the ranking found: not looked up again.
   */
  async rowDetails(org: string, ranking: Ranking, at: readonly number[], terms: string[]): Promise<(RowDetails | null)[]> {
    const { r, sec } = ranking.rows;
    const missing = at.filter((i) => !ranking.details.has(r[i]!));
    if (missing.length) {
      const { key, file } = this.where(org);
      const rowids = missing.map((i) => r[i]!);
      const firsts = missing.map((i) => r[i]! - sec[i]!);
      const got = await this.retrying(org, () => call<(RowDetails | null)[]>('rowDetails', key, file, rowids, firsts, terms, 0));
      rowids.forEach((x, k) => ranking.details.set(x, got[k]!));
      searchStats.orgTextRows += missing.length;
    }
    return at.map((i) => ranking.details.get(r[i]!)!);
  }

  /**
   * A word of the organization's index (of the space `space`'s pages, when given), to warm the
   * paths of a search with (null: none indexed). With `opened`, only if the thread has the index
   * open already (null otherwise: nothing made or rebuilt).
   */
  async sample(org: string, space?: string, opened = false): Promise<string | null> {
    const { key, file } = this.where(org);
    return this.retrying(org, () => call<string | null>('sample', key, file, space, opened));
  }

  /** Once in a while, after an organization search answered, spaces gone from the organization are swept from its index. */
  private afterOrgSearch(org: string) {
    if (Date.now() - (this.swept.get(org) ?? 0) >= searchLimits.sweepMs) {
      this.swept.set(org, Date.now());
      // After the answer, not before; never once the context is closing.
      this.sweeping = new Promise((r) => setImmediate(r)).then(() => (this.closed ? 0 : this.sweep(org))).catch(() => 0);
    }
  }

  /**
   * The best sections of the organization's spaces `spaces` (all of them current first): one
   * ranked query on the organization's index, at most `searchLimits.orgSections` rows.
   */
  async searchOrg(
    org: string,
    spaces: readonly { id: string; revision: string }[],
    match: string,
    terms: string[],
    opts: { limit?: number; bodyMax?: number } = {},
  ): Promise<RawHit[]> {
    return this.retrying(org, async () => {
      await this.ensure(org, spaces);
      const { key, file } = this.where(org);
      const rows = await call<RawHit[]>(
        'searchOrg',
        key,
        file,
        match,
        terms,
        spaces.map((s) => s.id),
        opts.limit ?? searchLimits.orgSections,
        opts.bodyMax ?? 0,
      );
      searchStats.orgQueries++;
      searchStats.orgIndexes++;
      searchStats.orgRows += rows.length;
      this.afterOrgSearch(org);
      return rows;
    });
  }

  /**
   * Removes from the organization's index the spaces no longer in the organization (purged, or
   * moved to another one: the other's index has them), or not in `keep` when given (the indexer
   * keeps the live spaces only: a deleted one is indexed again if restored). Deleted spaces stay
   * otherwise: they may be restored.
   */
  async sweep(org: string, keep?: ReadonlySet<string>): Promise<number> {
    const known = await this.known(org);
    // The candidates are the spaces indexed before the store is read below: a space created and
    // indexed after `keep` was made (the indexer's pass made it at its start) is not one of them,
    // and one that is is checked against the store as it is now, so a set made a while ago never
    // drops a space the organization still has (a search of it found nothing: a flaky test).
    const candidates = [...known.keys()].filter((id) => !keep?.has(id));
    if (!candidates.length) return 0;
    const here = await this.ctx.store.read((tx) => {
      const m = new Map(orgSpaces(tx, org).map((s) => [s.id, s]));
      return new Set(candidates.filter((id) => m.has(id) && (!keep || !m.get(id)!.deletedAt)));
    });
    const { key, file } = this.where(org);
    let n = 0;
    for (const id of candidates) {
      if (here.has(id) || this.running.has(id) || !known.has(id)) continue;
      known.delete(id); // first: a search from now on indexes it again rather than trust it
      this.changes++;
      if (await call<boolean>('drop', key, file, id)) n++;
    }
    searchStats.spacesDropped += n;
    return n;
  }
}

const contexts = new WeakMap<Context, Indexes>();

/** The search indexes of a context. */
export function indexesOf(ctx: Context): Indexes {
  let x = contexts.get(contextBase(ctx));
  if (!x) contexts.set(contextBase(ctx), (x = new Indexes(contextBase(ctx))));
  return x;
}

/** Closes a context's index files (its store closing); reopened on the next search. */
export async function closeIndexes(ctx: Context): Promise<void> {
  const x = contexts.get(contextBase(ctx));
  contexts.delete(contextBase(ctx));
  await x?.close();
}
