import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkFolder } from '../../commands/_lib/content-check.js';
import { FactCache } from '../../commands/_lib/link-cache.js';
import { loadParser, type Parse } from '../../src/content/link-refs.js';
import { tempDir } from '../helpers/server.js';

// `docs content check DIR` parses a page once per text: its links and heading anchors are kept by
// the SHA-256 of the text (issue 30's figure: a check of 1,000 pages <= 3x node -e 0); an entry
// of the wrong shape is ignored, and the answer is the same either way.

it('a second check parses no page; a changed page is parsed again; a malformed cache entry is not used', async () => {
  process.env.DOCS_CONFIG_DIR = tempDir('docs-check-cost-config-');
  const dir = tempDir('docs-check-cost-');
  mkdirSync(join(dir, 'guide'));
  writeFileSync(join(dir, 'README.md'), '# Home\n\nSee [setup](guide/setup.md#install) and [gone](missing.md).\n');
  writeFileSync(join(dir, 'guide', 'setup.md'), '# Setup\n\n## Install\n\nBack [home](../README.md#nowhere).\n');
  const base = await loadParser();
  let n = 0;
  const parse: Parse = (md) => (n++, base(md));
  const run = async () => {
    const cache = FactCache.load();
    const r = await checkFolder(dir, parse, cache);
    cache.save();
    return r.problems.map((p) => `${p.kind} ${p.line}`);
  };
  const want = ['broken-anchor 5', 'broken-link 3'];
  expect(await run()).toEqual(want);
  expect(n).toBe(2);
  n = 0;
  expect(await run()).toEqual(want);
  expect(n).toBe(0);
  writeFileSync(join(dir, 'guide', 'setup.md'), '# Setup\n\n## Install\n\nBack [home](../README.md).\n');
  n = 0;
  expect(await run()).toEqual(['broken-link 3']);
  expect(n).toBe(1);
  // Every entry made malformed: each page parsed again, the same answer.
  const file = join(process.env.DOCS_CONFIG_DIR, 'cache', 'check-index.json');
  const data = JSON.parse(readFileSync(file, 'utf8'));
  for (const k of Object.keys(data.entries)) data.entries[k] = { links: [{ url: 3 }], anchors: 'x' };
  writeFileSync(file, JSON.stringify(data));
  n = 0;
  expect(await run()).toEqual(['broken-link 3']);
  expect(n).toBe(2);
});

it('reads pages through one shared buffer: a large page, then smaller ones, and a page over push’s 2 MiB limit are each checked whole', async () => {
  process.env.DOCS_CONFIG_DIR = tempDir('docs-check-read-config-');
  const dir = tempDir('docs-check-read-');
  const filler = (n: number) => 'Words of filler text.\n'.repeat(Math.ceil(n / 22));
  // Names sort as read: a (100 KB: the buffer grows), b (small), c (2.2 MB, over MAX_PAGE_BYTES), d (small).
  writeFileSync(join(dir, 'a.md'), `# A\n\n${filler(100_000)}\n[to b](b.md) [gone](nowhere-a.md)\n`);
  writeFileSync(join(dir, 'b.md'), '# B\n\n[back](a.md) [gone](nowhere-b.md)\n');
  writeFileSync(join(dir, 'c.md'), `# C\n\n${filler(2_200_000)}\n[gone](nowhere-c.md)\n`);
  writeFileSync(join(dir, 'd.md'), '# D\n\n[c](c.md)\n');
  // The big page's text is given whole (its length checked) and its tail parsed: a 2.2 MB parse took seconds.
  const base = await loadParser();
  const lengths: number[] = [];
  const parse: Parse = (md) => (lengths.push(md.length), base(md.length > 1_000_000 ? md.slice(-100) : md));
  // Parsed the first time, from the cache by each page's hash the second.
  for (let run = 0; run < 2; run++) {
    const cache = FactCache.load();
    const r = await checkFolder(dir, parse, cache);
    cache.save();
    expect(r.problems.map((p) => `${p.file.slice(dir.length + 1)} ${p.kind} ${p.message.match(/nowhere-\w/)?.[0]}`)).toEqual([
      'a.md broken-link nowhere-a',
      'b.md broken-link nowhere-b',
      'c.md broken-link nowhere-c',
    ]);
  }
  expect(lengths.filter((n) => n > 1_000_000)).toEqual([statSync(join(dir, 'c.md')).size]); // once: the second run from the cache
}, 30_000);
