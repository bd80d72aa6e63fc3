// The search index thread: SQLite FTS5 (better-sqlite3) in a worker thread, so that indexing
// and queries never run on the event loop that serves requests. One database file per
// organization (`<data>/search/<org>.sqlite`, or in memory when the store is): every space of
// the organization indexed in one FTS5 table, each space in its own range of rowids
// (`space number * 2^32 + n`), so a space's search reads its range only and an organization's
// search is one ranked query (bm25, LIMIT) whatever the number of spaces.
//
// `indexWorker` is the thread's whole program: it is sent to the thread as source text
// (`workerSource()`), so it must not use anything from this module's scope but `snippet`, sent
// with it; modules come through `load` (the thread's `require`: a bundler rewrites the name).
// Tables (schema SCHEMA):
//   spaces(no, id, rev, seq, version): the revision a space's index is at (null while it has
//     never been completed), the next rowid offset, and a counter bumped by every write to the
//     space, so that an update that raced another (another process on the same files) is retried;
//   pages(space, id, sig, place, first, n): one row per indexed page, what a walk compares only
//     (sig: a digest of its body hash, title and description; place: of its path and ancestors);
//     its sections are rowids first .. first + n - 1, so a ranked rowid's page is the one with
//     the greatest `first` not above it (pages_first);
//   sections: FTS5 (body, title, pageTitle), contentless: the index only, not the text;
//   texts(first, text): a page's text (`PageText`: title, description, path, ancestors, its
//     sections) in one row, compressed (`pack`): read for the rows shown, and to remove a page's
//     sections from the contentless FTS5 table (it forgets a row given its text);
//   dict(id, data): the dictionary the texts are compressed with, made once from the first pages
//     indexed: short texts compressed alone lose most of what they share (the words of a
//     documentation set); with it, the 20,000-page seed's texts take a third of the room.
// Issue 28 item 6: the index at most 0.6 times the store.

/**
 * The better-sqlite3 package for this Node: 13 (Node-API; its binaries ship inside the npm
 * package, one for every Node from 22 on) where it runs, 12 on Node 20 (13 needs 22: on 20 it
 * crashes the process). Not 12 on 22+: it wraps its objects with node::ObjectWrap, whose
 * destructor aborts the whole process on Node 24.19 and later when V8 collects a statement after
 * the thread's environment is gone ("Assertion failed: (env) != nullptr" in
 * RemoveEnvironmentCleanupHook; nodejs/node issue 65446), as the search thread does when it ends.
 */
export const SQLITE_PACKAGE = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-node22' : 'better-sqlite3';

/** What the thread is told at start. */
export interface WorkerInit {
  /** Absolute path of better-sqlite3's entry point. */
  sqlite: string;
  schema: number;
}

/** A section as indexed: [title, anchor, body]. */
export type SectionRow = [title: string, anchor: string, body: string];
/** A page of a walk: [id, body hash, title, path, ancestors JSON, description]. */
export type WalkedPage = [id: string, sig: string, title: string, path: string, ancestors: string, description: string];
/** A page's text as the index keeps it (texts): [title, description, path, ancestors JSON, sections]. */
export type PageText = [title: string, description: string, path: string, ancestors: string, sections: SectionRow[]];
/** A page to (re)index: the walked page and its sections. */
export type IndexedPage = [...WalkedPage, SectionRow[]];

export interface RawHit {
  space: string;
  page: string;
  sec: number;
  title: string;
  anchor: string;
  /** A piece of the section's body around the terms (`snippet`). */
  snippet: string;
  /** The section's body (markdown, its first `bodyMax` characters), when asked for (passages for answers). */
  body?: string;
  score: number;
  pageTitle: string;
  description: string;
  path: string;
  ancestors: string;
}

/**
 * An organization's best sections, best first, as parallel arrays (cheap to send between threads):
 * rowid, bm25 score, space id, page id and section number of each. `version`: the database's
 * state they were ranked at (`stamp`); without `rows` when it is the caller's (its copy holds).
 */
export interface RankedRows {
  version: string;
  rows?: { r: number[]; score: number[]; space: string[]; page: string[]; sec: number[] };
  /** The rows of the score at the limit were too many for the first pass: a second one read them. */
  tiePass?: true;
  /** The ranking the thread made when it opened the file early (`preopen`), for the warm-up search. */
  kept?: true;
}

/** Inflates a text of the index (`inflaterOf`); `close` ends the zlib stream it keeps. */
type Inflater = ((z: Buffer) => string) & { close(): void };

/** Work counters of the search thread (`counts`: tests and measurements). */
export interface ThreadCounts {
  /** Ranked rows whose page was found from their rowid (the page whose sections start the nearest before it). */
  pageLookups: number;
  /** Page texts read for the rows shown (one per page, however many of its sections are shown). */
  textPages: number;
  /** Page texts inflated by a zlib stream kept for their dictionary (`inflaterOf`), and by one made for the text alone. */
  inflatedReused: number;
  inflatedAlone: number;
  /** Times a ranking read the index's spaces (none while the database is unchanged: `spacesOf`). */
  spacesRead: number;
}

/** The details of a ranked section: its title, anchor, snippet (and body), and its page's. */
export type RowDetails = Omit<RawHit, 'space' | 'page' | 'sec' | 'score'>;

/**
 * A piece of a section's body around the first of the terms (links read as their text). Part of
 * the thread's program (computed there, next to the bodies), so self-contained too.
 */
export function snippet(body: string, terms: readonly string[]): string {
  // Links read as their text (every link has "](": most bodies have none, and are not scanned
  // for one); then each run of markdown marks and spaces one space. As replacing the marks'
  // runs by a space and then every run of spaces by one space did (every space was replaced,
  // most by itself: 2-3x the time), with the same result: a lone " " is not replaced.
  const text = (body.includes('](') ? body.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') : body)
    .replace(/[\s`*_>#[\]()!|-]{2,}|[`*_>#[\]()!|-]|[^\S ]/g, ' ')
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

export function indexWorker(load: (id: string) => any): void {
  const { parentPort, workerData } = load('node:worker_threads');
  const fs = load('node:fs');
  const nodePath = load('node:path');
  const crypto = load('node:crypto');
  const zlib = load('node:zlib');
  /** The dictionary's size (zlib's window). */
  const DICT_SIZE = 32 * 1024;
  const Database = load(workerData.sqlite);
  const SCHEMA: number = workerData.schema;
  const SPAN = 2 ** 32;
  const MAX_OPEN_FILES = 16;
  /** The best rows a ranking reads in its first pass, in multiples of the rows asked (see `rank`). */
  const TIE_WINDOW = 8;
  /** Rankings that read the rows of the score at their limit in a second pass (`rank`). */
  let tiePasses = 0;
  /** Work counters of the thread (`counts`: tests and measurements). */
  const counts: ThreadCounts = { pageLookups: 0, textPages: 0, inflatedReused: 0, inflatedAlone: 0, spacesRead: 0 };

  interface Db {
    key: string;
    file: string | null;
    db: any;
    st: Record<string, any>;
    used: number;
    /** This connection's number in the thread, and its writes (with SQLite's data_version: `stamp`). */
    id: number;
    writes: number;
    /** The texts' dictionaries by id, once read (immutable). */
    dicts: Map<number, Buffer>;
    /** A zlib stream per dictionary id, kept to inflate the texts packed with it (`inflaterOf`). */
    inflaters: Map<number, Inflater>;
    /** Texts written while the database has no dictionary: it is made from them once they are enough. */
    pending: { bytes: number; text: string[]; spaces: Set<number> };
    /**
     * The ranking of the warm-up made when the file was opened early (`preopen`), of every space
     * of the index, at the database's state `version`: the warm-up search the indexer runs after
     * ready (src/search/service.ts `warmSearch`, the same word) is answered from it.
     */
    kept?: { match: string; limit: number; version: string; rows: NonNullable<RankedRows['rows']> };
    /** The index's spaces at the database's state `version` (`spacesOf`). */
    spaces?: { version: string; idOf: Map<number, string>; noOf: Map<string, number> };
  }
  interface Session {
    db: Db;
    no: number;
    space: string;
    /** The space's version this session expects (its own writes included). */
    version: number;
    seen: Set<string>;
    unseen?: { id: string; title: string; first: number; n: number }[];
  }

  const dbs = new Map<string, Db>();
  const sessions = new Map<number, Session>();
  let nextSession = 1;
  let tick = 0;
  let connections = 0;

  const DDL = [
    `CREATE TABLE IF NOT EXISTS spaces(no INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, rev TEXT, seq INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0)`,
    `CREATE TABLE IF NOT EXISTS pages(space INTEGER NOT NULL, id TEXT NOT NULL, sig BLOB NOT NULL, place BLOB NOT NULL, first INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY(space, id)) WITHOUT ROWID`,
    // The body first: FTS5 writes a column number before the positions of every column but the
    // first, so the column most words are in goes first (28% of the index at 20,000 pages; the
    // scores are the same: bm25 adds integer weights per hit and integer column sizes).
    `CREATE VIRTUAL TABLE IF NOT EXISTS sections USING fts5(body, title, pageTitle, content = '', tokenize = 'porter unicode61 remove_diacritics 2')`,
    `CREATE INDEX IF NOT EXISTS pages_first ON pages(first)`,
    `CREATE TABLE IF NOT EXISTS texts(first INTEGER PRIMARY KEY, text BLOB NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS dict(id INTEGER PRIMARY KEY, data BLOB NOT NULL)`,
    // The spaces whose text a dictionary was made from (a drop of one of them makes another).
    `CREATE TABLE IF NOT EXISTS dict_sources(id INTEGER NOT NULL, space INTEGER NOT NULL, PRIMARY KEY(id, space)) WITHOUT ROWID`,
  ];
  // Column weights of bm25, in the table's column order: body 1, a section title 2, a page title
  // 3 (as the boosts of the MiniSearch index this replaced).
  const RANK = `bm25(sections, 1.0, 2.0, 3.0)`;

  const isCorrupt = (e: any) => /^SQLITE_(CORRUPT|NOTADB)/.test(e?.code ?? '');

  /** Moves a damaged file out of the way (a unique name first: another process may do the same). */
  function discard(file: string) {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      const aside = `${f}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.bad`;
      try {
        fs.renameSync(f, aside);
        fs.unlinkSync(aside);
      } catch {}
    }
  }

  function create(file: string | null): any {
    if (file) {
      // Owner-only like the rest of the data directory: SQLite creates a new database 0644 (less
      // the umask), and gives its -wal and -shm files the database file's mode, so the file is
      // made 0600 first (and an existing one of an earlier version narrowed).
      fs.mkdirSync(nodePath.dirname(file), { recursive: true, mode: 0o700 });
      fs.closeSync(fs.openSync(file, 'a', 0o600));
      fs.chmodSync(file, 0o600);
    }
    const db = new Database(file ?? ':memory:');
    try {
      if (file) {
        db.pragma('busy_timeout = 10000'); // another process may hold the file a moment
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL'); // derived data: atomic commits, no fsync per commit
      }
      db.pragma('cache_size = -32768');
      db.transaction(() => {
        const v = db.pragma('user_version', { simple: true });
        if (v !== SCHEMA) {
          // An index of another schema (or none): dropped and made again, rebuilt on use.
          for (const t of ['sections', 'secs', 'bodies', 'texts', 'dict', 'pages', 'spaces']) db.exec(`DROP TABLE IF EXISTS ${t}`);
          for (const s of DDL) db.exec(s);
          db.pragma(`user_version = ${SCHEMA}`);
        }
      }).immediate();
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  }

  function prepare(db: any): Record<string, any> {
    return {
      space: db.prepare(`SELECT no, rev, seq, version FROM spaces WHERE id = ?`),
      addSpace: db.prepare(`INSERT INTO spaces(id) VALUES (?) ON CONFLICT(id) DO NOTHING`),
      bump: db.prepare(`UPDATE spaces SET version = version + 1 WHERE no = ?`),
      setSeq: db.prepare(`UPDATE spaces SET seq = ? WHERE no = ?`),
      setRev: db.prepare(`UPDATE spaces SET rev = ? WHERE no = ?`),
      revs: db.prepare(`SELECT id, rev FROM spaces`),
      page: db.prepare(`SELECT sig, place, first, n FROM pages WHERE space = ? AND id = ?`),
      pagesOf: db.prepare(`SELECT id, first FROM pages WHERE space = ?`),
      putPage: db.prepare(`INSERT OR REPLACE INTO pages(space, id, sig, place, first, n) VALUES (?, ?, ?, ?, ?, ?)`),
      meta: db.prepare(`UPDATE pages SET place = ? WHERE space = ? AND id = ?`),
      delPage: db.prepare(`DELETE FROM pages WHERE space = ? AND id = ?`),
      addSection: db.prepare(`INSERT INTO sections(rowid, pageTitle, title, body) VALUES (?, ?, ?, ?)`),
      addText: db.prepare(`INSERT OR REPLACE INTO texts(first, text) VALUES (?, ?)`),
      // A contentless table forgets a row given its text (its counts for bm25 go with it; the
      // `contentless_delete` option was measured to leave the totals counting deleted rows).
      delSection: db.prepare(`INSERT INTO sections(sections, rowid, pageTitle, title, body) VALUES ('delete', ?, ?, ?, ?)`),
      textsIn: db.prepare(`SELECT first, text FROM texts WHERE first BETWEEN ? AND ?`),
      delTexts: db.prepare(`DELETE FROM texts WHERE first BETWEEN ? AND ?`),
      text: db.prepare(`SELECT text FROM texts WHERE first = ?`).pluck(),
      anyText: db.prepare(`SELECT text FROM texts LIMIT 1`).pluck(),
      dict: db.prepare(`SELECT data FROM dict WHERE id = ?`).pluck(),
      lastDict: db.prepare(`SELECT id, data FROM dict ORDER BY id DESC LIMIT 1`),
      addDict: db.prepare(`INSERT INTO dict(id, data) VALUES (?, ?)`),
      otherDicts: db.prepare(`DELETE FROM dict WHERE id <> ?`),
      otherSources: db.prepare(`DELETE FROM dict_sources WHERE id <> ?`),
      addSource: db.prepare(`INSERT OR IGNORE INTO dict_sources(id, space) VALUES (?, ?)`),
      isSource: db.prepare(`SELECT 1 FROM dict_sources WHERE id = ? AND space = ?`).pluck(),
      textFirsts: db.prepare(`SELECT first FROM texts ORDER BY first`).pluck(),
      inSpace: db.prepare(`SELECT rowid, ${RANK} FROM sections WHERE sections MATCH ? AND rowid BETWEEN ? AND ?`).raw(),
      // Many rows in one statement (a JSON array of rowids): far cheaper than a statement per
      // row. A row's page: the one whose sections start the nearest before it.
      places: db
        .prepare(
          `SELECT j.value, p.id, j.value - p.first FROM json_each(?) j JOIN pages p ON p.first = (SELECT max(first) FROM pages WHERE first <= j.value) WHERE j.value < p.first + p.n`,
        )
        .raw(),
      // Texts by their page's first rowid (a JSON array of them).
      textsAt: db.prepare(`SELECT first, text FROM texts WHERE first IN (SELECT value FROM json_each(?))`).raw(),
      // The best rows by score, within the best `window` (LIMIT): every row whose score is at most
      // that of the (limit + 1)th (rank() counts the rows of a lower score), so that the rows of
      // equal scores that cross the limit come in the same pass (see `rank`).
      top: db
        .prepare(
          `SELECT r, score FROM (SELECT r, score, rank() OVER (ORDER BY score) AS k FROM (SELECT rowid AS r, ${RANK} AS score FROM sections WHERE sections MATCH ? ORDER BY score, rowid LIMIT ?)) WHERE k <= ?`,
        )
        .raw(),
      topIn: db
        .prepare(
          `SELECT r, score FROM (SELECT r, score, rank() OVER (ORDER BY score) AS k FROM (SELECT rowid AS r, ${RANK} AS score FROM sections WHERE sections MATCH ? AND (rowid >> 32) IN (SELECT value FROM json_each(?)) ORDER BY score, rowid LIMIT ?)) WHERE k <= ?`,
        )
        .raw(),
      tie: db.prepare(`SELECT r, score FROM (SELECT rowid AS r, ${RANK} AS score FROM sections WHERE sections MATCH ?) WHERE score = ?`).raw(),
      tieIn: db
        .prepare(
          `SELECT r, score FROM (SELECT rowid AS r, ${RANK} AS score FROM sections WHERE sections MATCH ? AND (rowid >> 32) IN (SELECT value FROM json_each(?))) WHERE score = ?`,
        )
        .raw(),
      nos: db.prepare(`SELECT no, id FROM spaces`),
      dropPages: db.prepare(`DELETE FROM pages WHERE space = ?`),
      dropSpace: db.prepare(`DELETE FROM spaces WHERE no = ?`),
    };
  }

  function connect(key: string, file: string | null): Db {
    let d = dbs.get(key);
    if (!d) {
      let db;
      try {
        db = create(file);
      } catch (e: any) {
        if (!file) throw e;
        if (isCorrupt(e)) {
          discard(file);
          db = create(file);
        } else if (/^(EACCES|EPERM|EROFS|SQLITE_CANTOPEN|SQLITE_READONLY)/.test(e?.code ?? '')) {
          db = create(null); // a directory it cannot write: an index in memory, for this process
        } else throw e;
      }
      d = {
        key,
        file: db.memory ? null : file,
        db,
        st: prepare(db),
        used: 0,
        id: ++connections,
        writes: 0,
        dicts: new Map(),
        inflaters: new Map(),
        pending: { bytes: 0, text: [], spaces: new Set() },
      };
      dbs.set(key, d);
      // Files beyond a few are closed, least recently used first (in-memory ones cannot be).
      const files = [...dbs.values()].filter((x) => x.file && !inSession(x));
      if (files.length > MAX_OPEN_FILES) {
        const lru = files.sort((a, b) => a.used - b.used)[0]!;
        lru.db.close();
        closeInflaters(lru);
        dbs.delete(lru.key);
      }
    }
    d.used = ++tick;
    return d;
  }

  const inSession = (d: Db) => [...sessions.values()].some((s) => s.db === d);

  /**
   * The state of a database, for the callers' caches of ranked results: this connection's writes
   * and SQLite's data_version (which moves when another connection, another process on the same
   * file, commits). Equal stamps: the index holds the same rows, a ranking is still the answer.
   */
  const stamp = (d: Db): string => `${d.id}:${d.writes}:${d.db.pragma('data_version', { simple: true })}`;

  /** Runs `fn` in a write transaction on the session's space, checking no one else wrote it. */
  function write<R>(s: Session, fn: () => R): R | { conflict: true } {
    s.db.writes++;
    return s.db.db
      .transaction(() => {
        const row = s.db.st.space.get(s.space);
        if (!row || row.version !== s.version) return { conflict: true as const };
        const r = fn();
        s.db.st.bump.run(s.no);
        s.version++;
        return r;
      })
      .immediate();
  }

  function session(id: number): Session {
    const s = sessions.get(id);
    if (!s) throw new Error(`search index: no session ${id}`);
    return s;
  }

  /** A dictionary of the texts (null: none with that id). */
  function dictOf(d: Db, id: number): Buffer | null {
    let dict = d.dicts.get(id);
    if (!dict) {
      dict = d.st.dict.get(id) as Buffer | undefined;
      if (!dict) return null;
      d.dicts.set(id, dict);
    }
    return dict;
  }

  /**
   * A page's sections as stored: a byte naming the dictionary (0: none), then the JSON of the
   * sections deflated. The dictionary is made in the first write that has enough text to make
   * it from (pages indexed before keep theirs without one).
   */
  function pack(d: Db, page: PageText, dictFrom: number, space: number): Buffer {
    const json = JSON.stringify(page);
    // Read in the write transaction, never cached from here: another process may have made it,
    // and one made in a transaction that then failed is not there.
    let last = d.st.lastDict.get() as { id: number; data: Buffer } | undefined;
    if (!last) {
      const pending = d.pending;
      pending.bytes += json.length;
      pending.text.push(json);
      pending.spaces.add(space);
      if (pending.bytes >= dictFrom) {
        last = { id: 1, data: dictionaryOf(pending.text) };
        d.st.addDict.run(last.id, last.data);
        for (const no of pending.spaces) d.st.addSource.run(last.id, no);
        d.pending = { bytes: 0, text: [], spaces: new Set() };
      }
    }
    // Level 3: as small as the default (6) with a dictionary, in two thirds of the time.
    const z = last ? zlib.deflateRawSync(json, { dictionary: last.data, level: 3 }) : zlib.deflateRawSync(json);
    return Buffer.concat([Buffer.of(last ? last.id : 0), z]);
  }

  /** A dictionary of texts: 512 characters from every 64th part, evenly: what documentation shares is spread over it. */
  function dictionaryOf(texts: readonly string[]): Buffer {
    const all = texts.join('\n');
    const step = Math.max(512, Math.floor(all.length / (DICT_SIZE / 512)));
    let data = '';
    for (let at = 0; data.length < DICT_SIZE && at < all.length; at += step) data += all.slice(at, at + 512);
    return Buffer.from(data.slice(0, DICT_SIZE), 'utf8');
  }

  /**
   * After a space is dropped (purged, or moved to another organization): the dictionary was made
   * from the first pages indexed, which may be that space's, and a purge must leave none of its
   * text. A new dictionary is made from the texts that remain (64 of them, evenly), every text is
   * packed again with it, and the old one deleted; none when no text remains. Only when the
   * dropped space is one the dictionary was made from (dict_sources). Ids only grow
   * (another process keeps the dictionaries it read by id): past 255, texts are packed alone.
   * Texts not yet in a dictionary (`pending`) are forgotten: the next ones make it.
   */
  function remakeDictionary(d: Db, dropped: number): void {
    d.pending = { bytes: 0, text: [], spaces: new Set() };
    const old = d.st.lastDict.get() as { id: number; data: Buffer } | undefined;
    // Only when the dictionary holds the dropped space's text: every text is packed again (at
    // 200,000 pages, seconds of the index thread), so not for the spaces it was not made from.
    if (!old || !d.st.isSource.get(old.id, dropped)) return;
    const firsts = d.st.textFirsts.all() as number[];
    const sample: string[] = [];
    const sources = new Set<number>();
    const every = Math.max(1, Math.floor(firsts.length / 64));
    for (let i = 0; i < firsts.length; i += every) {
      sample.push(JSON.stringify(unpack(d, d.st.text.get(firsts[i]!) as Buffer)));
      sources.add(Math.floor(firsts[i]! / SPAN));
    }
    const next = sample.length && old.id < 255 ? { id: old.id + 1, data: dictionaryOf(sample) } : undefined;
    if (next) {
      d.st.addDict.run(next.id, next.data);
      for (const no of sources) d.st.addSource.run(next.id, no);
    }
    for (const first of firsts) {
      const json = JSON.stringify(unpack(d, d.st.text.get(first) as Buffer));
      const z = next ? zlib.deflateRawSync(json, { dictionary: next.data, level: 3 }) : zlib.deflateRawSync(json);
      d.st.addText.run(first, Buffer.concat([Buffer.of(next ? next.id : 0), z]));
    }
    d.st.otherDicts.run(next ? next.id : 0);
    d.st.otherSources.run(next ? next.id : 0);
    d.dicts.clear();
    closeInflaters(d);
  }

  /** A page's text as stored by `pack`. */
  function unpack(d: Db, packed: Buffer): PageText {
    const id = packed[0]!;
    let inflate = d.inflaters.get(id);
    if (!inflate) {
      const dict = id ? dictOf(d, id) : null;
      if (id && !dict) throw Object.assign(new Error(`search index: dictionary ${id} missing`), { code: 'SQLITE_CORRUPT' });
      d.inflaters.set(id, (inflate = inflaterOf(dict)));
    }
    return JSON.parse(inflate(packed.subarray(1)));
  }

  /**
   * Inflates texts deflated (raw) with the dictionary `dict` (none: null), as
   * `zlib.inflateRawSync(z, { dictionary }).toString()` does, through one zlib stream kept for
   * them: `inflateRawSync` makes a stream per text (a Transform, its zlib state, the 32 KB
   * dictionary copied twice), ~2/3 of the ~20 µs it took for a page's text of ~600 bytes. The
   * stream is Node's own (`zlib.InflateRaw`), driven as `inflateRawSync` drives it
   * (`_handle.writeSync`, `_writeState`; `reset` sets the dictionary again); not public, so
   * checked on a text of its own when made: where it is not there or gives another text, and for
   * any text it does not end in one call (a text over 64 KB, an error, bytes past its end),
   * `inflateRawSync` inflates it, with its result or its error.
   */
  function inflaterOf(dict: Buffer | null): Inflater {
    const opts = dict ? { dictionary: dict } : {};
    const alone = (z: Buffer): string => {
      counts.inflatedAlone++;
      return zlib.inflateRawSync(z, opts).toString('utf8');
    };
    const out = Buffer.allocUnsafe(64 * 1024);
    let engine: any;
    let handle: any;
    let state: Uint32Array | undefined;
    const open = (): boolean => {
      try {
        engine = new zlib.InflateRaw(opts);
        engine.on('error', () => {}); // an error is inflateRawSync's to throw (below)
        handle = engine._handle;
        state = engine._writeState;
        return typeof handle?.writeSync === 'function' && typeof handle.reset === 'function' && state instanceof Uint32Array && state.length >= 2;
      } catch {
        return false;
      }
    };
    /** The text of `z` through the kept stream, or undefined (not ended in one call; an error). */
    const reused = (z: Buffer): string | undefined => {
      try {
        handle.reset();
        handle.writeSync(zlib.constants.Z_FINISH, z, 0, z.length, out, 0, out.length);
      } catch {
        return undefined;
      }
      // An error closes the stream (its handle dropped): a new one for the next text.
      if (engine._handle !== handle) {
        usable = open();
        return undefined;
      }
      const left = state![0]!;
      return left === 0 || state![1] !== 0 ? undefined : out.toString('utf8', 0, out.length - left);
    };
    let usable = open();
    // Two texts in a row, each referring to the dictionary: the stream reset between them.
    for (const probe of ['search index probe ', ' the second probe'])
      if (usable) {
        const text = Buffer.concat([Buffer.from(probe), dict ? dict.subarray(0, 256) : Buffer.alloc(0), Buffer.from(probe)]);
        usable = reused(zlib.deflateRawSync(text, { ...opts, level: 3 })) === text.toString('utf8');
      }
    if (!usable) engine?.close();
    const inflate = (z: Buffer): string => {
      if (usable) {
        const text = reused(z);
        if (text !== undefined) {
          counts.inflatedReused++;
          return text;
        }
      }
      return alone(z);
    };
    return Object.assign(inflate, { close: () => engine?.close() });
  }

  /** Closes the zlib streams kept for a database's texts (it is closed, or its dictionaries replaced). */
  function closeInflaters(d: Db) {
    for (const x of d.inflaters.values()) x.close();
    d.inflaters.clear();
  }

  /** Removes the pages whose sections start at rowids first .. last: their sections from the FTS index, their texts. */
  function removeTexts(d: Db, first: number, last: number) {
    for (const x of d.st.textsIn.all(first, last)) {
      const [pageTitle, , , , secs] = unpack(d, x.text);
      secs.forEach(([title, , body], i) => d.st.delSection.run(x.first + i, pageTitle, title, body));
    }
    d.st.delTexts.run(first, last);
  }

  /** A digest of strings (16 bytes: what a walk compares; a page's text is kept in texts). */
  const digest = (...parts: string[]): Buffer => crypto.createHash('sha256').update(JSON.stringify(parts)).digest().subarray(0, 16);

  function removePage(d: Db, no: number, id: string, first: number) {
    removeTexts(d, first, first);
    d.st.delPage.run(no, id);
  }

  /**
   * The `limit` best sections of the spaces `only` (their ids): one ranked query (bm25, LIMIT),
   * however many spaces match; equal scores in page id, section order.
   */
  function rank(d: Db, match: string, only: string[], limit: number): { r: number; score: number; space: string; page: string; sec: number }[] {
    const { idOf, noOf } = spacesOf(d);
    // Only the caller's spaces: a filter only when the index holds others (spaces the caller
    // may not read, deleted or moved ones).
    const nos = only.map((id) => noOf.get(id)).filter((n) => n !== undefined);
    if (!nos.length || limit <= 0) return [];
    const all = nos.length === idOf.size;
    const nosJson = JSON.stringify(nos);
    // Equal scores in page id, section order (what an index kept incrementally and one built
    // from scratch agree on; their rowids differ): every row of a score that crosses the limit is
    // read, and the first `limit` kept. They come with the best rows (the rows whose score is at
    // most the (limit + 1)th's) when they are within `window` of the top; beyond it, every row of
    // that score is read in a second pass, which ranks every matching row again. A single word of
    // the 200,000-page seed had 60-2,243 rows of the score at its limit, and a second pass cost
    // as much as the first (every word of the bench's: short generated sections score alike).
    const window = (limit + 1) * TIE_WINDOW;
    let best: [number, number][] = all ? d.st.top.all(match, window, limit + 1) : d.st.topIn.all(match, nosJson, window, limit + 1);
    if (best.length >= window && best[limit]![1] === best[limit - 1]![1]) {
      const edge = best[limit]![1];
      tiePasses++;
      best = [...best.filter((x) => x[1] !== edge), ...(all ? d.st.tie.all(match, edge) : d.st.tieIn.all(match, nosJson, edge))];
    }
    // The rows of a score past the limit's are never kept: their pages are not looked up (at
    // 200,000 pages, up to thousands of rows of the (limit + 1)th score, ~3 µs each). Every row's
    // score is at most the greatest one's here; those of a lower score are kept when at least
    // `limit` (the limit's score is then lower). Unless one of them has no page (none has in a
    // sound index): then every row, as the ranking's order depends on that.
    let shown = best;
    if (best.length > limit) {
      let max = Number.NEGATIVE_INFINITY;
      for (const x of best) if (x[1] > max) max = x[1];
      let below = 0;
      for (const x of best) if (x[1] < max) below++;
      if (below >= limit) shown = best.filter((x) => x[1] < max);
    }
    let at = placesOf(d, shown);
    if (at.size < shown.length && shown !== best) at = placesOf(d, (shown = best));
    const rows = shown.flatMap(([r, score]) => {
      const p = at.get(r);
      return p ? [{ r, score, space: idOf.get(Math.floor(r / SPAN))!, page: p[0], sec: p[1] }] : [];
    });
    rows.sort((a, b) => a.score - b.score || (a.page < b.page ? -1 : a.page > b.page ? 1 : a.sec - b.sec));
    rows.length = Math.min(rows.length, limit);
    return rows;
  }

  /** The page (id) and section number of ranked rows (rowid, score), by rowid: rows without a page left out. */
  function placesOf(d: Db, rows: [number, number][]): Map<number, [string, number]> {
    counts.pageLookups += rows.length;
    return new Map(d.st.places.all(JSON.stringify(rows.map((x) => x[0]))).map((x: any[]) => [x[0], [x[1], x[2]]]));
  }

  /** Ranked rows as parallel arrays (`RankedRows`). */
  function rowsOf(ranked: ReturnType<typeof rank>): NonNullable<RankedRows['rows']> {
    const rows = { r: [] as number[], score: [] as number[], space: [] as string[], page: [] as string[], sec: [] as number[] };
    for (const x of ranked) {
      rows.r.push(x.r);
      rows.score.push(x.score);
      rows.space.push(x.space);
      rows.page.push(x.page);
      rows.sec.push(x.sec);
    }
    return rows;
  }

  /** Whether `only` (space ids) names every space of the index. */
  function coversAll(d: Db, only: readonly string[]): boolean {
    const { noOf } = spacesOf(d);
    let n = 0;
    for (const id of new Set(only)) if (noOf.has(id)) n++;
    return n === noOf.size;
  }

  /**
   * The index's spaces, by number and by id, kept while the database is unchanged (`stamp`: a
   * space added or dropped is a write): read and mapped for every ranking, the 2,000 rows of the
   * 200,000-page seed cost ~1.5 ms of a new query.
   */
  function spacesOf(d: Db): { idOf: Map<number, string>; noOf: Map<string, number> } {
    const version = stamp(d);
    if (d.spaces?.version !== version) {
      counts.spacesRead++;
      const idOf = new Map<number, string>(d.st.nos.all().map((r: any) => [r.no, r.id]));
      d.spaces = { version, idOf, noOf: new Map([...idOf].map(([no, id]) => [id, no])) };
    }
    return d.spaces;
  }

  /**
   * A word of the index's text, for a search that warms the paths a search takes (null: no
   * text): the longest of a page's, a rare one, so that the warming search ranks few rows (a
   * frequent word, as a prefix, matched every section of the 200,000-page seed: seconds of
   * the thread's time just after a start).
   */
  function sampleWord(d: Db, space?: string): string | null {
    // Of any page, or of one of the space's pages (its rows are its number's span).
    const no = space === undefined ? undefined : d.st.space.get(space)?.no;
    const packed = space === undefined ? d.st.anyText.get() : no === undefined ? undefined : d.st.textsIn.get(no * SPAN, no * SPAN + SPAN - 1)?.text;
    if (!packed) return null;
    const [title, , , , secs] = unpack(d, packed);
    const words: string[] = `${secs.map((x) => x[2]).join(' ')} ${title}`.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];
    return words.reduce<string | null>((a, w) => (a === null || w.length > a.length ? w : a), null);
  }

  /**
   * The text of ranked rows: section title, anchor, snippet (body), and the page's title,
   * description, path, ancestors. `firsts`: the first rowid of each row's page, as its ranking
   * found it (rowid − section number): its text is read by it, the page not looked up again. A
   * page gone since (indexed again: its text moved to new rowids; removed) has no text there:
   * null, as for a section past its page's.
   */
  function details(d: Db, rowids: number[], firsts: number[], terms: string[], bodyMax: number): (RowDetails | null)[] {
    const wanted = [...new Set(firsts)];
    counts.textPages += wanted.length;
    const packed = new Map<number, Buffer>(d.st.textsAt.all(JSON.stringify(wanted)) as [number, Buffer][]);
    const pages = new Map<number, PageText | null>();
    return rowids.map((r, i) => {
      const first = firsts[i]!;
      let page = pages.get(first);
      if (page === undefined) {
        const text = packed.get(first);
        pages.set(first, (page = text ? unpack(d, text) : null));
      }
      if (!page) return null;
      const [pageTitle, description, path, ancestors, secs] = page;
      const sec = r >= first ? secs[r - first] : undefined;
      if (!sec) return null;
      const [title, anchor, body] = sec;
      return {
        title,
        anchor,
        snippet: snippet(body, terms),
        ...(bodyMax > 0 ? { body: body.slice(0, bodyMax) } : {}),
        pageTitle: pageTitle ?? '',
        description: description ?? '',
        path: path ?? '',
        ancestors: ancestors ?? '[]',
      };
    });
  }

  const ops: Record<string, (...args: any[]) => unknown> = {
    /** space id -> revision indexed (null: never completed). */
    revs(key: string, file: string | null) {
      return connect(key, file)
        .st.revs.all()
        .map((r: any) => [r.id, r.rev]);
    },

    begin(key: string, file: string | null, space: string) {
      const d = connect(key, file);
      d.writes++;
      const row = d.db
        .transaction(() => {
          d.st.addSpace.run(space);
          return d.st.space.get(space);
        })
        .immediate();
      const id = nextSession++;
      sessions.set(id, { db: d, no: row.no, space, version: row.version, seen: new Set() });
      return { session: id, rev: row.rev };
    },

    /** Pages of the walk: returns the ids whose text must be (re)indexed; moves are applied. */
    walk(id: number, pages: WalkedPage[]) {
      const s = session(id);
      const need: string[] = [];
      const moved: [string, Buffer, string, string, number][] = [];
      for (const [pid, sig, title, path, ancestors, description] of pages) {
        s.seen.add(pid);
        const row = s.db.st.page.get(s.no, pid);
        if (!row || !digest(sig, title, description).equals(row.sig)) need.push(pid);
        else {
          const place = digest(path, ancestors);
          if (!place.equals(row.place)) moved.push([pid, place, path, ancestors, row.first]);
        }
      }
      if (moved.length) {
        const r = write(s, () => {
          for (const [pid, place, path, ancestors, first] of moved) {
            s.db.st.meta.run(place, s.no, pid);
            const packed = s.db.st.text.get(first);
            if (!packed) continue;
            const [title, description, , , secs] = unpack(s.db, packed);
            s.db.st.addText.run(first, pack(s.db, [title, description, path, ancestors, secs], Number.POSITIVE_INFINITY, s.no));
          }
        });
        if (r && (r as any).conflict) return { conflict: true };
      }
      return { need };
    },

    /** (Re)indexes pages: their old sections removed, the new ones added (`dictFrom`: `pack`'s). */
    index(id: number, pages: IndexedPage[], dictFrom: number) {
      const s = session(id);
      const { st } = s.db;
      const r = write(s, () => {
        let seq: number = st.space.get(s.space).seq;
        for (const [pid, sig, title, path, ancestors, description, secs] of pages) {
          const old = st.page.get(s.no, pid);
          if (old) removePage(s.db, s.no, pid, old.first);
          if (seq + secs.length >= SPAN) throw new Error(`search index: space ${s.space} ran out of rowids`);
          const first = s.no * SPAN + seq;
          secs.forEach(([t, , body], i) => st.addSection.run(first + i, title, t, body));
          if (secs.length) st.addText.run(first, pack(s.db, [title, description, path, ancestors, secs], dictFrom, s.no));
          st.putPage.run(s.no, pid, digest(sig, title, description), digest(path, ancestors), first, secs.length);
          seq += secs.length;
        }
        st.setSeq.run(seq, s.no);
      });
      return r && (r as any).conflict ? { conflict: true } : { ok: true };
    },

    /** Removes up to `max` indexed pages the walk did not see; returns how many are left. */
    prune(id: number, max: number) {
      const s = session(id);
      s.unseen ??= s.db.st.pagesOf.all(s.no).filter((p: any) => !s.seen.has(p.id));
      const batch = s.unseen!.splice(0, max);
      if (batch.length) {
        const r = write(s, () => {
          for (const p of batch) removePage(s.db, s.no, p.id, p.first);
        });
        if (r && (r as any).conflict) return { conflict: true };
      }
      return { left: s.unseen!.length };
    },

    /** Marks the space's index at `rev` if no one else wrote it meanwhile; ends the session. */
    end(id: number, rev: string | null) {
      const s = session(id);
      sessions.delete(id);
      if (rev === null) return { ok: false };
      const r = write(s, () => s.db.st.setRev.run(rev, s.no));
      return { ok: !(r && (r as any).conflict) };
    },

    /**
     * Every page of a space matching, best first (equal scores by page id), with the rowids of
     * its matching sections, best first.
     */
    searchSpace(key: string, file: string | null, space: string, match: string) {
      const d = connect(key, file);
      const row = d.st.space.get(space);
      const byPage = new Map<string, [number, number][]>();
      if (row) {
        const hits: [number, number][] = d.st.inSpace.all(match, row.no * SPAN, row.no * SPAN + SPAN - 1);
        counts.pageLookups += hits.length;
        const pageOf = new Map<number, string>(d.st.places.all(JSON.stringify(hits.map((h) => h[0]))).map((x: any[]) => [x[0], x[1]]));
        for (const [rowid, score] of hits) {
          const page = pageOf.get(rowid);
          if (page === undefined) continue;
          const secs = byPage.get(page);
          if (secs) secs.push([score, rowid]);
          else byPage.set(page, [[score, rowid]]);
        }
      }
      const pages = [...byPage].map(([page, secs]) => {
        secs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        return { page, best: secs[0]![0], rowids: secs.map((x) => x[1]) };
      });
      // Equal scores in page id order: what an index kept incrementally and one built from
      // scratch agree on (their rowids, in the order pages were indexed, differ).
      pages.sort((a, b) => a.best - b.best || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
      // bm25 is lower for better matches (negative): its opposite is the relevance score.
      return { ids: pages.map((p) => p.page), rowids: pages.map((p) => p.rowids), scores: pages.map((p) => byPage.get(p.page)!.map((x) => x[0])) };
    },

    /** Pages' titles, paths, ancestors and the sections `rowids` (with snippets around `terms`). */
    details(key: string, file: string | null, space: string, terms: string[], pages: [string, number[]][]) {
      const d = connect(key, file);
      const row = d.st.space.get(space);
      return pages.map(([pid, rowids]) => {
        const p = row && d.st.page.get(row.no, pid);
        if (!p) return null;
        const packed = d.st.text.get(p.first);
        if (!packed) return null;
        const [title, description, path, ancestors, all] = unpack(d, packed);
        const secs = rowids.flatMap((r) => {
          const x = all[r - p.first];
          return x ? [{ rowid: r, sec: r - p.first, title: x[0], anchor: x[1], snippet: snippet(x[2], terms) }] : [];
        });
        return { title, description, path, ancestors, sections: secs };
      });
    },

    /**
     * A word of the index's text (of the space `space`'s, when given) for a warm-up search
     * (`sampleWord`); with `opened`, only of a database this thread has open (null otherwise:
     * none is made, nor an old file rebuilt).
     */
    sample(key: string, file: string | null, space?: string, opened = false): string | null {
      const d = opened ? dbs.get(key) : connect(key, file);
      return d ? sampleWord(d, space) : null;
    },

    /**
     * Opens the index files `files` (the main thread listed them to decide whether to start this
     * thread early; up to MAX_OPEN_FILES, most recently written first), their statements prepared and dictionaries read: sent when `docs serve` starts,
     * while the store opens, so that the first search after ready finds them open. How many opened.
     */
    preopen(files: string[], limit: number): number {
      let names: { file: string; at: number }[];
      try {
        names = files.map((file) => ({ file, at: fs.statSync(file).mtimeMs }));
      } catch {
        return 0;
      }
      names.sort((a, b) => b.at - a.at);
      let n = 0;
      for (const { file } of names.slice(0, MAX_OPEN_FILES)) {
        try {
          const d = connect(file, file);
          const last = d.st.lastDict.get() as { id: number; data: Buffer } | undefined;
          if (last) d.dicts.set(last.id, last.data);
          // The warm-up's ranking and the text of its first rows: SQLite's cache and this
          // thread's code warmed before ready, its ranking kept for the warm-up search.
          const word = sampleWord(d);
          if (word) {
            const match = `"${word}"*`;
            const version = stamp(d);
            const ranked = rank(d, match, [...spacesOf(d).noOf.keys()], limit);
            d.kept = { match, limit, version, rows: rowsOf(ranked) };
            const shown = ranked.slice(0, 50);
            details(
              d,
              shown.map((x) => x.r),
              shown.map((x) => x.r - x.sec),
              [word],
              0,
            );
          }
          n++;
        } catch {}
      }
      return n;
    },

    /** The database's state (`stamp`). */
    stamp(key: string, file: string | null) {
      return stamp(connect(key, file));
    },

    /**
     * The `limit` best sections of the organization (of the spaces `only`), best first, without
     * their text: what ranking and grouping need. Nothing but the version when the database is
     * still at `known` (the caller's cached ranking holds).
     */
    rankOrg(key: string, file: string | null, match: string, only: string[], limit: number, known?: string): RankedRows {
      const d = connect(key, file);
      const version = stamp(d);
      if (version === known) return { version };
      const kept = d.kept;
      if (kept && kept.version === version && kept.match === match && kept.limit === limit && coversAll(d, only)) {
        d.kept = undefined; // once: what the warm-up search asks
        return { version, rows: kept.rows, kept: true };
      }
      const passes = tiePasses;
      const rows = rowsOf(rank(d, match, only, limit));
      return tiePasses > passes ? { version, rows, tiePass: true } : { version, rows };
    },

    /** Titles, anchors, snippets around `terms` (and bodies, `bodyMax` > 0) of ranked rows, and their pages'. */
    rowDetails(key: string, file: string | null, rowids: number[], firsts: number[], terms: string[], bodyMax = 0): (RowDetails | null)[] {
      const d = connect(key, file);
      return details(d, rowids, firsts, terms, bodyMax);
    },

    /** The thread's work counters (`ThreadCounts`). */
    counts(): ThreadCounts {
      return { ...counts };
    },

    /**
     * The `limit` best sections of the organization (of the spaces `only`, when given), with
     * their pages' titles and paths: one ranked query, however many spaces match.
     */
    searchOrg(key: string, file: string | null, match: string, terms: string[], only: string[], limit: number, bodyMax = 0) {
      const d = connect(key, file);
      const ranked = rank(d, match, only, limit);
      const more = details(
        d,
        ranked.map((x) => x.r),
        ranked.map((x) => x.r - x.sec),
        terms,
        bodyMax,
      );
      return ranked.flatMap((x, i) => (more[i] ? [{ space: x.space, page: x.page, sec: x.sec, score: x.score, ...more[i]! }] : []));
    },

    /** Removes a space from the index (it was purged or moved to another organization). */
    drop(key: string, file: string | null, space: string) {
      const d = connect(key, file);
      d.writes++;
      return d.db
        .transaction(() => {
          const row = d.st.space.get(space);
          if (!row) return false;
          removeTexts(d, row.no * SPAN, row.no * SPAN + SPAN - 1);
          d.st.dropPages.run(row.no);
          d.st.dropSpace.run(row.no);
          remakeDictionary(d, row.no);
          return true;
        })
        .immediate();
    },

    /** Closes the databases whose key starts with `prefix` (a context closing). */
    close(prefix: string) {
      for (const [key, d] of dbs) {
        if (!key.startsWith(prefix) || inSession(d)) continue;
        d.db.close();
        closeInflaters(d);
        dbs.delete(key);
      }
      return true;
    },
  };

  parentPort.on('message', (m: { id: number; op: string; args: unknown[] }) => {
    try {
      parentPort.postMessage({ id: m.id, result: ops[m.op]!(...m.args) });
    } catch (e: any) {
      // A damaged file: dropped here (rebuilt on the next use), the caller retries once.
      const args = m.args as any[];
      const d = typeof args[0] === 'string' ? dbs.get(args[0]) : sessions.get(args[0])?.db;
      let reset = false;
      if (d && isCorrupt(e)) {
        try {
          d.db.close();
        } catch {}
        closeInflaters(d);
        dbs.delete(d.key);
        for (const [sid, s] of sessions) if (s.db === d) sessions.delete(sid);
        if (d.file) discard(d.file);
        reset = true;
      }
      parentPort.postMessage({ id: m.id, error: { message: String(e?.message ?? e), code: e?.code, reset } });
    }
  });
}

/** The thread's program as source text (for `new Worker(source, { eval: true })`). */
export const workerSource = () => `${snippet.toString()}\n(${indexWorker.toString()})(require);`;
