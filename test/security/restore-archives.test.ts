import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// `docs restore` is all or nothing, whatever the archive holds. Every entry is checked before
// one byte is written: symbolic and hard links, a link followed by an entry through it (which
// once ended in "internal error: ENOTEMPTY" with a `<dir>.restore-XXXX/` left behind), `..`
// and absolute paths, duplicate entries, a file with entries under it: exit 2 naming the entry,
// nothing created, nothing written outside. An archive that does not hold a complete store (no
// catalog, no root shard: `shards/x.json` = `{}` restored as "checked" before) is refused too.

interface Entry {
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'hardlink';
  body?: string | Buffer;
  link?: string;
}

/** A .tar.gz of exactly these entries (ustar headers written by hand: any shape, even a hostile one). */
function tarGz(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = e.type === 'file' ? Buffer.from(e.body ?? '') : Buffer.alloc(0);
    const h = Buffer.alloc(512);
    const put = (s: string, at: number, len: number) => h.write(s.slice(0, len), at, 'utf8');
    const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
    put(e.path, 0, 100);
    put(octal(e.type === 'dir' ? 0o755 : 0o644, 8), 100, 8);
    put(octal(0, 8), 108, 8);
    put(octal(0, 8), 116, 8);
    put(octal(body.length, 12), 124, 12);
    put(octal(1_700_000_000, 12), 136, 12);
    h.write(' '.repeat(8), 148, 'ascii');
    put({ file: '0', dir: '5', symlink: '2', hardlink: '1' }[e.type], 156, 1);
    if (e.link) put(e.link, 157, 100);
    put('ustar\0', 257, 6);
    put('00', 263, 2);
    let sum = 0;
    for (const b of h) sum += b;
    put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/** The entries of a real store (a data directory made by docs), folders first. */
function entriesOf(dir: string): Entry[] {
  const out: Entry[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const rel = relative(dir, p);
      if (rel === 'lock.json') continue;
      if (e.isDirectory()) {
        out.push({ path: rel + '/', type: 'dir' });
        walk(p);
      } else out.push({ path: rel, type: 'file', body: readFileSync(p) });
    }
  };
  walk(dir);
  return out;
}

let store: Entry[];
beforeAll(async () => {
  const data = join(tempDir(), 'data');
  expect((await docs(['orgs', 'list', '--data', data])).status).toBe(0);
  store = entriesOf(data);
}, 60_000);

/** Restores `entries` into a new directory: the result, and what exists beside it afterwards. */
async function restore(entries: Entry[]) {
  const base = tempDir();
  const archive = join(base, 'a.tar.gz');
  writeFileSync(archive, tarGz(entries));
  const target = join(base, 'restored');
  const r = await docs(['restore', archive, '--data', target]);
  return { r, target, beside: readdirSync(base).filter((f) => f !== 'a.tar.gz') };
}

describe('docs restore refuses every archive shape it cannot restore whole', () => {
  const outside = tempDir(); // a folder a link points at: nothing may be written in it
  const cases: [string, () => Entry[], RegExp][] = [
    [
      'a symbolic link, then an entry through it',
      () => [...store, { path: 'lnk', type: 'symlink', link: outside }, { path: 'lnk/x', type: 'file', body: 'through the link' }],
      /entry "lnk" is a symbolic link/,
    ],
    ['a symbolic link alone', () => [...store, { path: 'files/ab', type: 'symlink', link: '/etc' }], /entry "files\/ab" is a symbolic link/],
    ['a hard link', () => [...store, { path: 'store/copy.json', type: 'hardlink', link: 'store/root.json' }], /entry "store\/copy\.json" is a hard link/],
    [
      'a folder through a link',
      () => [{ path: 'd', type: 'symlink', link: outside }, { path: 'd/', type: 'dir' }, { path: 'd/f', type: 'file', body: 'x' }, ...store],
      /entry "d" is a symbolic link/,
    ],
    ['a `..` entry', () => [...store, { path: '../escape.txt', type: 'file', body: 'out' }], /entry "\.\.\/escape\.txt" is not a relative path of plain names/],
    [
      'a `..` in the middle',
      () => [...store, { path: 'store/../../escape.txt', type: 'file', body: 'out' }],
      /entry "store\/\.\.\/\.\.\/escape\.txt" is not a relative path/,
    ],
    ['an absolute path', () => [...store, { path: `${outside}/abs.txt`, type: 'file', body: 'out' }], /is not a relative path of plain names/],
    ['a duplicate entry', () => [...store, { path: 'store/root.json', type: 'file', body: '{}' }], /entry "store\/root\.json" appears twice/],
    [
      'an entry, then a file where its folder is',
      () => [...store, { path: 'extra/x', type: 'file', body: 'x' }, { path: 'extra', type: 'file', body: 'f' }],
      /entry "extra" is a file where the archive also holds entries under it/,
    ],
    [
      'a file, then an entry under it',
      () => [...store, { path: 'extra', type: 'file', body: 'f' }, { path: 'extra/x', type: 'file', body: 'x' }],
      /entry "extra\/x" is under extra, which the archive holds as a file/,
    ],
  ];
  for (const [what, entries, message] of cases) {
    it(`${what}: exit 2 naming the entry, nothing left behind`, async () => {
      const { r, target, beside } = await restore(entries());
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(existsSync(target)).toBe(false);
      expect(beside).toEqual([]); // no <dir>.restore-XXXX/
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(join(dirname(target), '..', 'escape.txt'))).toBe(false);
    }, 30_000);
  }

  it('an archive without a complete store (only shards/x.json = {}): refused, nothing left', async () => {
    const { r, target, beside } = await restore([
      { path: 'shards/', type: 'dir' },
      { path: 'shards/x.json', type: 'file', body: '{}' },
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/does not hold a complete docs store: checksums\/, shards\/catalog\.json, shards\/root\.json missing/);
    expect(existsSync(target)).toBe(false);
    expect(beside).toEqual([]);
  }, 30_000);

  it('a store without its root shard: refused', async () => {
    const { r, target } = await restore(store.filter((e) => e.path !== 'store/root.json'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/store\/root\.json/);
    expect(existsSync(target)).toBe(false);
  }, 30_000);

  it('a backup of format 2 (taken by an earlier docs): restored as it is, migrated at its first start', async () => {
    const { r, target } = await restore(entriesOf(join(import.meta.dirname, '../fixtures/format-2/data')));
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(join(target, 'shards')).isDirectory()).toBe(true);
    expect((await docs(['doctor', '--data', target, '--json'])).json).toMatchObject({ format: 2, damaged: [] });
    expect((await docs(['orgs', 'list', '--data', target], { DOCS_TOKEN: 'gb_api_test_owner_token' })).status).toBe(0);
    expect(statSync(join(target, 'shards')).isFile()).toBe(true);
  }, 30_000);

  it('the same store, whole: restored and checked', async () => {
    const { r, target, beside } = await restore(store);
    expect(r.status, r.stderr).toBe(0);
    expect(beside).toEqual(['restored']);
    expect(statSync(join(target, 'store')).isDirectory()).toBe(true);
    expect((await docs(['doctor', '--data', target])).status).toBe(0);
  }, 30_000);
});
