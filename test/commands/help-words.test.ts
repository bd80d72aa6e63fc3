import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';

// Issue 20: --help describes flags and arguments in words, never by repeating their name
// ("--limit  limit", "[SPACEID]  spaceId").
describe('--help in words', () => {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'oclif.manifest.json'), 'utf8'));
  // Empty, or the name itself as written in the spec or on the command line ("limit", "spaceId").
  const bare = (name: string, description: string | undefined) => {
    const d = (description ?? '').trim();
    const camel = name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    return !d || d === name || d === camel;
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
});
