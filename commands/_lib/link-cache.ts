import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';
import { sha256hex, spansOf, wellFormed } from '../../src/content/link-index.js';
import type { Parse } from '../../src/content/link-refs.js';

// The link offsets of the folder's markdown, by the SHA-256 of each body, kept between runs in
// the CLI's cache (<cache>/link-index/<x>.json, x the hash's first hex digit;
// DOCS_CONFIG_DIR/cache when that is set): a push parses a file of the folder only when its hash
// is new, i.e. when it changed. Content addressed, so never stale; an entry is used only when its
// offsets fit the body (wellFormed), else the body is parsed again. A missing or unreadable cache
// only costs parsing.
// In 16 files, each read when a body of its prefix is looked up and written when one was added:
// a one-line change of a 2,000-page folder reads and writes one file of ~1/16 of the entries,
// not all of them (one file of 3,200 entries, 0.5 MB, was ~50 ms of such a push to read and
// write again); a first push writes 16 files, not hundreds in one go (the event loop's bound).
// Each file keeps its newest MAX_ENTRIES / 16.

const MAX_ENTRIES = 100_000;
const SHARDS = 16;
const cacheDir = () => (process.env.DOCS_CONFIG_DIR ? join(process.env.DOCS_CONFIG_DIR, 'cache') : envPaths('docs', { suffix: 'nodejs' }).cache);

export class LinkCache {
  /** Bodies parsed this run (for tests and figures). */
  parsed = 0;
  /** How many of the cache's files the caches of this process read (for tests and figures). */
  static reads = 0;
  private readonly shards = new Map<string, Map<string, number[]>>();
  private readonly dirty = new Set<string>();
  private constructor(private readonly dir: string) {}

  /** The cache (nothing read yet: each file is read on the first lookup of its prefix). */
  static load(): LinkCache {
    return new LinkCache(join(cacheDir(), 'link-index'));
  }

  private shard(prefix: string): Map<string, number[]> {
    let entries = this.shards.get(prefix);
    if (!entries) {
      entries = new Map();
      LinkCache.reads++;
      try {
        const data = JSON.parse(readFileSync(join(this.dir, `${prefix}.json`), 'utf8'));
        if (data?.v === 1 && data.entries && typeof data.entries === 'object') entries = new Map(Object.entries(data.entries) as [string, number[]][]);
      } catch {}
      this.shards.set(prefix, entries);
    }
    return entries;
  }

  /** Where the body's links are: from the cache when its hash is known and the offsets fit, else parsed. */
  spans(parse: Parse, body: string): number[] {
    const sha = sha256hex(body);
    const prefix = sha[0]!;
    const entries = this.shard(prefix);
    const known = entries.get(sha);
    if (known && wellFormed(body, known)) {
      // Most recently used last: the oldest go first when the cache is full. (Not written for
      // that alone: an order kept only in memory costs nothing to lose.)
      entries.delete(sha);
      entries.set(sha, known);
      return known;
    }
    const spans = spansOf(parse, body);
    this.parsed++;
    entries.delete(sha);
    entries.set(sha, spans);
    this.dirty.add(prefix);
    return spans;
  }

  save() {
    for (const prefix of this.dirty) saveEntries(join(this.dir, `${prefix}.json`), this.shards.get(prefix)!, Math.floor(MAX_ENTRIES / SHARDS));
    // The one file of earlier builds: its entries are parsed again once, as a cold cache's.
    if (this.dirty.size) rmSync(join(this.dir, '..', 'link-index.json'), { force: true });
    this.dirty.clear();
  }
}

/**
 * `docs content check`'s cache: a page's links (URL, kind, line) and heading anchors by the
 * SHA-256 of its bytes (pageKey; <cache>/check-index.json), so a check parses only the pages that changed
 * since the last one. An entry of the wrong shape is ignored (the page is parsed).
 */
export class FactCache {
  private dirty = false;
  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, unknown>,
  ) {}

  static load(): FactCache {
    const file = join(cacheDir(), 'check-index.json');
    let entries = new Map<string, unknown>();
    try {
      const data = JSON.parse(readFileSync(file, 'utf8'));
      if (data?.v === 1 && data.entries && typeof data.entries === 'object') entries = new Map(Object.entries(data.entries));
    } catch {}
    return new FactCache(file, entries);
  }

  /** `key`: pageKey(bytes), the SHA-256 of the page's bytes. */
  get(key: string): { links: { url: string; type: string; line: number }[]; anchors: string[] } | undefined {
    const got = this.entries.get(key) as any;
    const ok =
      got &&
      Array.isArray(got.links) &&
      Array.isArray(got.anchors) &&
      got.anchors.every((a: unknown) => typeof a === 'string') &&
      got.links.every((l: any) => l && typeof l.url === 'string' && typeof l.type === 'string' && Number.isInteger(l.line));
    return ok ? got : undefined;
  }

  set(key: string, facts: { links: { url: string; type: string; line: number }[]; anchors: string[] }) {
    if (this.entries.get(key) === facts) return;
    this.entries.delete(key);
    this.entries.set(key, facts);
    this.dirty = true;
  }

  save() {
    if (this.dirty) saveEntries(this.file, this.entries);
  }
}

/**
 * A page's key in FactCache: the SHA-256 of its bytes, hashed as read (no UTF-8 decoding of a page
 * whose facts are known). The same as the SHA-256 of its text, the key before, for every page in
 * valid UTF-8; for another, the key of bytes that decode to that text, so an entry is never wrong.
 */
export const pageKey = (bytes: Buffer) => hash('sha256', bytes, 'hex');

/** Writes a cache's entries (the newest `max`) by rename; a cache that cannot be written costs the next run its parsing, nothing else. */
function saveEntries(file: string, entries: Map<string, unknown>, max = MAX_ENTRIES): void {
  try {
    while (entries.size > max) entries.delete(entries.keys().next().value!);
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: 1, entries: Object.fromEntries(entries) }));
    renameSync(tmp, file);
  } catch {}
}
