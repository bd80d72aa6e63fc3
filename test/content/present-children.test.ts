import { describe, expect, it } from 'vitest';
import { presentChildren, presentPage } from '../../src/content/present.js';
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

  it("presents a document page's fields in one order, optional ones in their place (the answer's bytes)", () => {
    const ctx = { baseUrl: 'http://127.0.0.1:1' } as Context;
    const space = { id: 's1', organization: 'o1' } as SpaceRecord;
    const full: PageNode = {
      ...page('a', 'document', [page('b', 'document')]),
      emoji: '1f600',
      icon: 'book',
      description: 'About a',
      content: 'f00d',
      hidden: true,
    };
    const keys = (p: object) => Object.keys(p).join(',');
    const fields = (optional: boolean, body: string) =>
      [
        'id,title',
        optional ? 'emoji,icon' : '',
        `createdAt,updatedAt,kind,type,${body},urls,slug,path`,
        optional ? 'description' : '',
        'pages,layout,tags,hidden,noIndex,noRobotsIndex',
        optional ? 'documentId' : '',
      ]
        .filter(Boolean)
        .join(',');
    const a = presentPage(ctx, space, full, 'a', () => ({ markdown: '# A' }));
    expect(keys(a)).toBe(fields(true, 'markdown'));
    expect(a).toMatchObject({
      emoji: '1f600',
      icon: 'book',
      description: 'About a',
      documentId: 'f00d',
      hidden: true,
      markdown: '# A',
      urls: { app: 'http://127.0.0.1:1/o/o1/s/s1/a' },
    });
    expect(keys((a as { pages: object[] }).pages[0]!)).toBe(fields(false, 'markdown'));
    expect(keys(presentPage(ctx, space, full, 'a', () => ({ document: { nodes: [] } }), false))).toBe(fields(true, 'document'));
  });
});
