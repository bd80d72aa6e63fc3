import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetTrees } from '../../src/content/revisions.js';
import { flatten } from '../../src/content/tree.js';
import { sidebar } from '../../src/published/render/page.js';
import { Spaces } from '../../src/spaces/tables.js';
import { pageAt } from '../../src/urls/site/page-nav.js';
import { neighbours, pageVisible, spacePages } from '../../src/urls/site/pages.js';
import type { SpaceEntry } from '../../src/urls/site/site.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { api, edit, page } from '../published/fixture.js';

// A page of a big space read from its ancestors' navigation rows (src/urls/site/page-nav.ts) is
// the page the whole index finds, with the same sidebar, neighbours and conditions, for every
// page and visitor of a space with hidden pages, conditions, nested pages and a group.

let s: TestServer;
let spaceId: string;

beforeAll(async () => {
  s = await startServer();
  const call = api(s);
  const org = (await call('GET', '/v1/orgs')).items[0].id;
  spaceId = (await call('POST', `/v1/orgs/${org}/spaces`, { title: 'Nav' })).id;
  const admin = { condition: 'visitor.claims.role === "admin"' };
  for (let p = 0; p < 9; p++) {
    const extra = p === 2 ? { hidden: true } : p === 3 ? admin : {};
    const changes: object[] = [page(`p${p}`, `Part ${p}`, `Part ${p}.`, extra)];
    for (let c = 0; c < 45; c++) {
      const own = c === 10 ? { hidden: true } : c === 11 ? admin : c === 0 && p === 5 ? { hidden: true } : {};
      changes.push(page(`p${p}-${c}`, `Page ${p}.${c}`, `Body ${p}.${c}.`, { into: `p${p}`, ...own }));
    }
    // Nested pages: the last child of a part has subpages (one hidden, one for admins).
    changes.push(page(`p${p}-n`, `Nest ${p}`, `Nest ${p}.`, { into: `p${p}` }));
    for (let g = 0; g < 3; g++)
      changes.push(page(`p${p}-n${g}`, `Deep ${p}.${g}`, `Deep ${p}.${g}.`, { into: `p${p}-n`, ...(g === 1 ? { hidden: true } : g === 2 ? admin : {}) }));
    await edit(s, spaceId, changes);
  }
  await edit(s, spaceId, [
    { operation: 'insert_page', ref: 'g', type: 'group', title: 'Group', document: {} },
    page('g-0', 'In group 0', 'G0.', { into: 'g' }),
    page('g-1', 'In group 1', 'G1.', { into: 'g' }),
  ]);
}, 180_000);
afterAll(() => s?.stop());

describe('a page read from navigation rows', () => {
  it('is the page, sidebar, neighbours and conditions the whole index gives, for every page and visitor', async () => {
    const space = await s.ctx.store.read((tx) => tx.get(Spaces, spaceId)!);
    const entry = { url: '/site', space } as unknown as SpaceEntry;
    const paths = await s.ctx.store.read((tx) => flatten(spacePages(tx, space).tree).map((l) => l.path));
    expect(paths.length).toBeGreaterThan(400);
    let compared = 0;
    for (const visitor of [
      { claims: {}, signed: false },
      { claims: { role: 'admin' }, signed: true },
    ]) {
      for (const path of paths) {
        forgetTrees();
        const partial = await s.ctx.store.read((tx) => pageAt(tx, space, path, visitor));
        const got = await s.ctx.store.read((tx) => {
          const full = spacePages(tx, space);
          const l = full.byPath.get(path)!;
          return { l, full, visible: pageVisible(full, l, visitor) };
        });
        if (!got.visible || got.l.node.type !== 'document') continue;
        expect(partial, path).toBeTypeOf('object');
        if (typeof partial !== 'object') continue;
        const pl = partial.byPath.get(path)!;
        expect(pl.node.id).toBe(got.l.node.id);
        expect(pageVisible(partial, pl, visitor)).toBe(true);
        expect(partial.conditional).toBe(got.full.conditional);
        const near = (n: ReturnType<typeof neighbours>) => [n.prev?.path, n.next?.path];
        expect(near(neighbours(partial, pl, visitor)), path).toEqual(near(neighbours(got.full, got.l, visitor)));
        expect(sidebar(partial, entry, pl, visitor)).toBe(sidebar(got.full, entry, got.l, visitor));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(700);
  });
});
