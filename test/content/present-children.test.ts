import { describe, expect, it } from 'vitest';
import { presentChildren } from '../../src/content/present.js';
import type { PageNode } from '../../src/content/model.js';
import type { Context } from '../../src/kernel/context.js';
import type { SpaceRecord } from '../../src/spaces/model.js';

const at = '2026-01-01T00:00:00.000Z';
const page = (id: string, type: PageNode['type'], pages: PageNode[] = []): PageNode => ({ id, type, title: id, slug: id, createdAt: at, updatedAt: at, pages });

describe('presentChildren', () => {
  it('presents a group nested by an older store as its pages, in its place (no group below the top level)', () => {
    const ctx = { baseUrl: 'http://127.0.0.1:1' } as Context;
    const space = { id: 's1', organization: 'o1' } as SpaceRecord;
    const tree = [page('a', 'document'), page('g', 'group', [page('b', 'document'), page('c', 'document', [page('d', 'document')])]), page('e', 'document')];
    const out = presentChildren(ctx, space, tree, 'top', () => ({ markdown: '' }));
    expect(out.map((p) => [p.id, p.type])).toEqual([
      ['a', 'document'],
      ['b', 'document'],
      ['c', 'document'],
      ['e', 'document'],
    ]);
    // The hoisted pages keep the paths they are reached by (the group's slug included).
    expect(out.map((p) => ('path' in p ? p.path : ''))).toEqual(['top/a', 'top/g/b', 'top/g/c', 'top/e']);
    const c = out[2] as { pages: Array<{ id: string }> };
    expect(c.pages.map((p) => p.id)).toEqual(['d']);
  });
});
