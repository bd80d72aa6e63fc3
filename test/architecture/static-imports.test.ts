import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/kernel/root.js';
import { importGraph } from './import-graph.js';

// What a module loads as soon as it is loaded: its static imports, and theirs (type-only and
// dynamic imports cost nothing then). A command or request pays for all of it at its first use.

const graph = importGraph(packageRoot());
function staticClosure(file: string): Set<string> {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) if (!e.typeOnly && !e.dynamic) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const seen = new Set<string>();
  const stack = [file];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    stack.push(...(next.get(f) ?? []));
  }
  return seen;
}

describe('static imports of hot paths', () => {
  it('the check every content read makes loads the purge (sites/, git/, audit/) only when a space is due', () => {
    const loaded = [...staticClosure('src/space-expiry.ts')];
    expect(loaded).toContain('src/spaces/retention.ts');
    expect(loaded.filter((f) => /^src\/(sites|git|audit)\//.test(f) || f === 'src/space-purge.ts')).toEqual([]);
  });
});
