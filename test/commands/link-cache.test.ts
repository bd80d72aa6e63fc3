import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkCache } from '../../commands/_lib/link-cache.js';
import { sha256hex } from '../../src/content/link-index.js';
import { loadParser } from '../../src/content/link-refs.js';
import { tempDir } from '../helpers/server.js';

// The folder's link offsets by body hash (issue 28 item 2): kept in 16 files by the hash's first
// digit, so a push looks up and writes again only the files of the bodies it asks for (a
// one-line change of a 2,000-page folder no longer reads and rewrites every entry).

const saved = process.env.DOCS_CONFIG_DIR;
afterEach(() => {
  process.env.DOCS_CONFIG_DIR = saved;
});

describe('LinkCache', () => {
  it('keeps each body under its hash’s first digit, and finds one with only its own file there', async () => {
    const config = tempDir('docs-link-cache-');
    process.env.DOCS_CONFIG_DIR = config;
    const parse = await loadParser();
    const bodies = Array.from({ length: 64 }, (_, i) => `Page ${i}: see [the next](page-${i + 1}.md) and [a file](./images/${i}.png).\n`);
    const first = LinkCache.load();
    const spans = bodies.map((b) => first.spans(parse, b));
    expect(first.parsed).toBe(64);
    first.save();
    const dir = join(config, 'cache', 'link-index');
    const files = readdirSync(dir).sort();
    expect(files.length).toBeGreaterThan(8);
    expect(files.every((f) => /^[0-9a-f]\.json$/.test(f))).toBe(true);
    // Only the file of the body looked up is there: it is found, nothing parsed, nothing written.
    const body = bodies[5]!;
    const own = `${sha256hex(body)[0]}.json`;
    for (const f of files) if (f !== own) rmSync(join(dir, f));
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(join(dir, own), old, old);
    const again = LinkCache.load();
    expect(again.spans(parse, body)).toEqual(spans[5]);
    expect(again.parsed).toBe(0);
    again.save();
    expect(readdirSync(dir)).toEqual([own]);
    expect(statSync(join(dir, own)).mtime.getTime()).toBe(old.getTime());
    // A body of another file (removed above) is parsed again, and its file written.
    const other = bodies.find((b) => sha256hex(b)[0] !== own[0])!;
    expect(again.spans(parse, other)).toEqual(spans[bodies.indexOf(other)]);
    expect(again.parsed).toBe(1);
    again.save();
    expect(readdirSync(dir).sort()).toEqual([own, `${sha256hex(other)[0]}.json`].sort());
  });
});
