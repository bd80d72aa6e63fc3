import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_DESCRIPTION } from '../../commands/_lib/pages.js';
import { packageRoot } from '../../src/kernel/root.js';

// Issue 20: --help describes flags and arguments in words, never by repeating their name
// ("--limit  limit", "[SPACEID]  spaceId").
describe('--help in words', () => {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'oclif.manifest.json'), 'utf8'));
  // Empty, or the name itself however written: "limit", "spaceId", "space id", "Site ID",
  // "Share key" for --share-key (letters compared, case and separators aside).
  const letters = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const bare = (name: string, description: string | undefined) => {
    const d = letters(description ?? '');
    return !d || d === letters(name) || d === letters(name) + 'id';
  };

  it('no flag or argument is described by its own name', () => {
    const found: string[] = [];
    for (const c of Object.values<any>(manifest.commands)) {
      if (c.hidden) continue;
      for (const [name, f] of Object.entries<any>(c.flags)) if (!f.hidden && bare(name, f.description ?? f.summary)) found.push(`${c.id} --${name}`);
      for (const [name, a] of Object.entries<any>(c.args ?? {})) if (bare(name, a.description)) found.push(`${c.id} ${name}`);
    }
    expect(found).toEqual([]);
  });

  it('--page (the cursor of a list) is explained once, in the same words everywhere', () => {
    const words = new Set<string>();
    for (const c of Object.values<any>(manifest.commands)) if (c.flags.page && c.flags.limit) words.add(c.flags.page.description);
    expect([...words]).toEqual([PAGE_DESCRIPTION]);
  });
});
