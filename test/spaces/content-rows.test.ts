import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { ManualClock } from '../../src/kernel/clock.js';
import type { Context } from '../../src/kernel/context.js';
import { openContext } from '../../src/open.js';
import { spaceContentTables } from '../../src/spaces/content-rows.js';
import { spaceCounts } from '../../src/spaces/counts.js';
import { duplicateSpace } from '../../src/spaces/relocate.js';
import { purgeExpiredSpaces } from '../../src/space-purge.js';
import { RETENTION_MS } from '../../src/spaces/retention.js';
import { createSpace, deleteSpace } from '../../src/spaces/service.js';
import { TABLES } from '../../src/store/tables.js';
import { table } from '../../src/store/port.js';
import { ChangeRequests } from '../../src/change-requests/tables.js';
import type { ChangeRequestRecord } from '../../src/change-requests/model.js';
import { Members } from '../../src/organizations/tables.js';
import { Revisions, Spaces } from '../../src/spaces/tables.js';

// Tables a later area will add, registered here for the test only: duplicate and purge must
// handle them with no change to their code.
const LATER = [
  { name: 'pages', shard: (r: any) => `space/${r.space}`, indexes: ['space'] },
  { name: 'changeRequests', shard: (r: any) => `space/${r.space}`, indexes: ['space'] },
];

let pushed = false;
async function world(clock = new ManualClock()) {
  TABLES.push(...LATER);
  pushed = true;
  const ctx = await openContext(undefined, { clock });
  const boot = (await bootstrap(ctx, 'gb_api_rows'))!;
  const caller = { userId: boot.userId };
  const org = await ctx.store.read((tx) => tx.find(Members, 'user', boot.userId)[0].organization as string);
  const { row: space } = await ctx.store.write((tx) => createSpace(tx, ctx, caller, org, { title: 'Source' }));
  return { ctx, caller, org, space, clock };
}

let open: Context | undefined;
afterEach(async () => {
  if (pushed) TABLES.splice(TABLES.length - LATER.length, LATER.length);
  pushed = false;
  await open?.store.close();
  open = undefined;
});

/** The table this test adds (a content table no area has yet). */
const Pages = table<any, 'space'>('pages');

describe('space content rows', () => {
  it('every table in a space shard names its space in `space` and indexes it', () => {
    for (const t of TABLES) {
      if (t.name === 'spaces') continue; // the space's own row, in space/<its id>: not content of a space
      // Audit events' recent rings: in the shard of the write they record, a space's among others;
      // the organization's log, not content of a space (neither copied nor purged with it).
      if (t.name === 'auditRecent') continue;
      const shard = t.shard({ id: 'r', space: 'S', organization: 'O', user: 'U' });
      if (shard.startsWith('space/')) {
        expect(shard === 'space/S' || shard.startsWith('space/S/'), `${t.name}: ${shard}`).toBe(true);
        expect(t.indexes, t.name).toContain('space');
      }
    }
    expect(spaceContentTables().map((t) => t.name)).toContain('revisions');
    expect(spaceContentTables().map((t) => t.name)).not.toContain('spaces');
  });

  it('duplicate copies rows of any content table, with new ids and references remapped', async () => {
    const { ctx, caller, space } = await world();
    open = ctx;
    await ctx.store.write((tx) => {
      tx.put(Pages, { id: 'p1', space: space.id, revision: space.revision, title: 'Intro', links: ['p2'] });
      tx.put(Pages, { id: 'p2', space: space.id, revision: space.revision, title: 'Next', parent: 'p1' });
      tx.put(ChangeRequests, { id: `${space.id}.1`, space: space.id, status: 'open', number: 1 } as ChangeRequestRecord);
    });
    const { row: copy } = await ctx.store.write((tx) => duplicateSpace(tx, ctx, caller, space.id));
    const pages = await ctx.store.read((tx) => tx.find(Pages, 'space', copy.id));
    expect(pages).toHaveLength(2);
    const intro = pages.find((p) => p.title === 'Intro')!;
    const next = pages.find((p) => p.title === 'Next')!;
    expect([intro.id, next.id]).not.toContain('p1');
    expect(intro).toMatchObject({ revision: copy.revision, links: [next.id] });
    expect(next.parent).toBe(intro.id);
    expect(copy.revision).not.toBe(space.revision);
    // A composite id keeps its shape, with the copy's id in place of the original's.
    expect(await ctx.store.read((tx) => tx.get(ChangeRequests, `${copy.id}.1`))).toMatchObject({ space: copy.id, number: 1 });
    // The original is untouched, and counts come from the rows that exist.
    expect(await ctx.store.read((tx) => tx.find(Pages, 'space', space.id))).toHaveLength(2);
    expect(await ctx.store.read((tx) => spaceCounts(tx, copy.id))).toEqual({ comments: 0, changeRequests: 1, changeRequestsOpen: 1, changeRequestsDraft: 0 });
  });

  it('the purge removes the space and the rows of every content table, after 7 days only', async () => {
    const { ctx, caller, space, clock } = await world();
    open = ctx;
    await ctx.store.write((tx) => tx.put(Pages, { id: 'p1', space: space.id, title: 'Intro' }));
    await ctx.store.write((tx) => deleteSpace(tx, ctx, caller, space.id));
    clock.advance(RETENTION_MS - 1);
    // Found from the organizations' summaries: no space row is read unless one is to be purged
    // (reading every space's row loaded the shard of every space at each start of docs serve).
    const read = ctx.store.read.bind(ctx.store);
    const rowsRead: string[] = [];
    ctx.store.read = ((fn: (tx: any) => unknown) =>
      read((tx: any) =>
        fn(
          new Proxy(tx, {
            get: (t, k) =>
              k === 'get' || k === 'all' || k === 'find'
                ? (table: string, ...rest: unknown[]) => (rowsRead.push(table), t[k](table, ...rest))
                : Reflect.get(t, k),
          }),
        ),
      )) as typeof ctx.store.read;
    try {
      expect(await purgeExpiredSpaces(ctx)).toBe(0);
    } finally {
      ctx.store.read = read;
    }
    expect(rowsRead).not.toContain(Spaces);
    clock.advance(1);
    expect(await purgeExpiredSpaces(ctx)).toBe(1);
    expect(await ctx.store.read((tx) => [tx.get(Spaces, space.id), tx.get(Pages, 'p1'), tx.get(Revisions, space.revision)])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
