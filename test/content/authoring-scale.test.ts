import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap, ownerOf } from '../../src/auth/bootstrap.js';
import { invoke } from '../../src/invoke.js';
import type { Context } from '../../src/kernel/context.js';
import type { PageNode } from '../../src/content/model.js';
import { commitRevision } from '../../src/content/revisions.js';
import { treeWork } from '../../src/content/tree.js';
import { openContext } from '../../src/open.js';
import { ChangeRequests } from '../../src/change-requests/tables.js';

// An authoring batch costs the pages it touches and their ancestors, not the size of the space
// (issue: building a big space was quadratic, every change walking the whole tree). Counted in
// pages visited (tree.ts treeWork: walked, indexed, copied, hashed or loaded), not in time.

const SECTIONS = 400;
const PER_SECTION = 50; // a section page and 49 subpages: 20,000 pages, as bench/text.mjs sectionChanges
const BOUND = 1_000; // a batch of 50 changes, ancestors and all, against 20,000 pages

let ctx: Context;
let call: (op: string, input: object) => Promise<any>;
let space: string;
let cr: string;
let big: string;

const id = (s: number, i: number) => `p${s}x${i}`;

beforeAll(async () => {
  ctx = await openContext(undefined);
  await bootstrap(ctx, 'gb_api_scale_test_owner');
  const caller = { userId: (await ownerOf(ctx))! };
  call = async (op, input) => {
    const r = await invoke(ctx, op, input, caller);
    if (r.status >= 400) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const org = (await call('listOrganizationsForAuthenticatedUser', {})).items[0].id;
  space = (await call('createSpace', { path: { organizationId: org }, body: { title: 'Big' } })).id;
  cr = (await call('createChangeRequest', { path: { spaceId: space }, body: { subject: 'Grow' } })).id;
  // The 20,000 pages written as one revision of the change request (a batch at a time would be slow).
  const at = '2026-01-01T00:00:00.000Z';
  const page = (pid: string, title: string, slug: string, pages: PageNode[] = []): PageNode => ({
    id: pid,
    type: 'document',
    title,
    slug,
    createdAt: at,
    updatedAt: at,
    pages,
  });
  const pages = Array.from({ length: SECTIONS }, (_, s) =>
    page(
      id(s, 0),
      `Section ${s}`,
      `section-${s}`,
      Array.from({ length: PER_SECTION - 1 }, (_, i) => page(id(s, i + 1), `Page ${i + 1}`, `page-${i + 1}`)),
    ),
  );
  big = await ctx.store.write((tx) => {
    const row = tx.get(ChangeRequests, cr)!;
    const rev = commitRevision(tx, ctx, space, [row.revision], { pages, files: [] });
    tx.put(ChangeRequests, { ...row, revision: rev.id });
    return rev.id;
  });
}, 120_000);

afterAll(() => ctx?.store.close());

const batch = (changes: object[]) =>
  call('updateChangeRequestContent', { path: { spaceId: space, changeRequestId: cr }, query: { compat: false }, body: { changes } });

/** Pages visited by one batch. */
async function visits(changes: object[]): Promise<{ visits: number; body: any }> {
  const before = treeWork.visits;
  const body = await batch(changes);
  return { visits: treeWork.visits - before, body };
}

const section = (s: number) => [
  { operation: 'insert_page', ref: `s${s}`, title: `Section ${s}`, slug: `section-${s}`, document: { markdown: `Section ${s}.` } },
  ...Array.from({ length: 49 }, (_, i) => ({
    operation: 'insert_page',
    into: `s${s}`,
    title: `Page ${i + 1}`,
    slug: `page-${i + 1}`,
    document: { markdown: `Page ${i + 1} of ${s}.` },
  })),
];

describe('an authoring batch on a 20,000-page space', () => {
  it('visits the pages it inserts, not the space, batch after batch', async () => {
    // The first batch on a revision loaded from the store may index it (once per revision).
    await batch(section(SECTIONS));
    for (let s = SECTIONS + 1; s < SECTIONS + 4; s++) {
      const { visits: n } = await visits(section(s));
      expect(n, `batch ${s}`).toBeLessThan(BOUND);
      expect(n, `batch ${s}`).toBeGreaterThanOrEqual(50); // it does count: 50 new pages hashed
    }
  });

  it('updates, moves, deletes, reverts and resolves links without walking the tree', async () => {
    const { visits: n, body } = await visits([
      {
        operation: 'update_page',
        page: id(123, 17),
        title: 'Renamed',
        document: { markdown: 'See [the other](../section-7/page-3.md) and [that](/pages/section-300/page-2).' },
      },
      { operation: 'update_page', page: id(5, 9), into: id(300, 0), at: 0, slug: 'moved' },
      { operation: 'update_page', page: id(200, 4), at: 0 },
      { operation: 'delete_page', page: id(77, 30) },
      { operation: 'delete_page', page: id(78, 0) },
      { operation: 'update_page', page: id(10, 10), title: 'Changed' },
      { operation: 'revert_page', page: id(10, 10), revision: big },
      {
        operation: 'insert_page',
        into: id(250, 5),
        ref: 'new',
        title: 'Deep',
        document: { markdown: 'Up to [the section](../../section-250.md), [moved](/pages/section-300/moved).' },
      },
    ]);
    // A whole section (50 pages) is deleted: its pages are visited once; the rest is O(ancestors).
    expect(n).toBeLessThan(BOUND);
    expect(body.changes.map((c: any) => c.object)).toEqual([
      'updated_page',
      'updated_page',
      'updated_page',
      'deleted_page',
      ...Array(50).fill('deleted_page'),
      'updated_page',
      'created_page',
    ]);

    const byPath = async (path: string) => call('getPageInChangeRequestByPath', { path: { spaceId: space, changeRequestId: cr, pagePath: path }, query: {} });
    const renamed = await byPath('section-123/page-17');
    expect(renamed).toMatchObject({ id: id(123, 17), title: 'Renamed' });
    expect(renamed.markdown).toBe(`See [the other](/pages/${id(7, 3)}) and [that](/pages/${id(300, 2)}).\n`);
    expect((await byPath('section-300/moved')).id).toBe(id(5, 9));
    const deep = await byPath('section-250/page-5/deep');
    expect(deep.markdown).toBe(`Up to [the section](/pages/${id(250, 0)}), [moved](/pages/${id(5, 9)}).\n`);
    expect(await byPath('section-10/page-10')).toMatchObject({ id: id(10, 10), title: 'Page 10' });
    // The rules still hold: slugs unique among siblings, no move under itself, no page deleted.
    await expect(batch([{ operation: 'update_page', page: id(1, 1), slug: 'page-3' }])).rejects.toThrow(
      /changes\[0\]\.slug: .*page-3.* is already used by sibling page/,
    );
    await expect(batch([{ operation: 'update_page', page: id(300, 0), into: id(5, 9) }])).rejects.toThrow(
      /changes\[0\]\.into: a page cannot move into itself or one of its subpages/,
    );
    await expect(batch([{ operation: 'update_page', page: id(77, 30) }])).rejects.toThrow(/changes\[0\]\.page: no page/);
  });
});
