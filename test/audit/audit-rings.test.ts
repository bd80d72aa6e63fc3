import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_RING_MS, RING, auditHook } from '../../src/audit/record.js';
import { AuditEvents, AuditHosts, AuditRecent } from '../../src/audit/tables.js';
import { ManualClock } from '../../src/kernel/clock.js';
import type { Context } from '../../src/kernel/context.js';
import { hookedStore } from '../../src/kernel/write-scope.js';
import { Spaces } from '../../src/spaces/tables.js';
import type { Store } from '../../src/store/port.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { newOrg } from '../organizations/people.js';

// Where recent audit events are kept (src/audit/record.ts, docs/manual/audit.md): in one ring per
// organization and process (`auditring/<org>/<slot>`), not in the shard of each place written,
// so a place's shard stays its rows (on PostgreSQL a space's was 16 times its row, sent and read
// back by the other server at each write: issue 28 item 7). Each process on a shared store has a
// ring of its own; a ring nobody adds to any more is moved to the segments by the next sweep.

let s: TestServer;
const clock = new ManualClock();
beforeAll(async () => {
  s = await startServer({ clock });
});
afterAll(() => s.stop());

const ringsOf = (org: string) => s.ctx.store.read((tx) => tx.find(AuditHosts, 'organization', org).map((h) => h.host));
const ringRows = (host: string) => s.ctx.store.read((tx) => tx.find(AuditRecent, 'host', host));
const listed = async (org: string) => (await s.api('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body.items.map((e: any) => e.id as string);

/** A process of its own on a store shared with others (Store.claim set): it records through `s`'s store. */
function otherProcess() {
  const ctx: Context = { ...s.ctx, base: undefined, store: { claim: () => Promise.resolve(null) } as unknown as Store };
  return (spaceId: string, title: string) => {
    const scope = auditHook(ctx, { operationId: 'updateSpaceById', method: 'PATCH', path: { spaceId }, caller: { userId: 'u' } });
    return hookedStore(s.ctx.store, scope).write((tx) => void tx.put(Spaces, { ...tx.get(Spaces, spaceId)!, title }));
  };
}

describe('recent audit rings', () => {
  it("are kept one per organization and process: writes to several places leave the places' shards without events", async () => {
    const org = await newOrg(s);
    const spaces = [];
    for (let i = 0; i < 3; i++) spaces.push((await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: `S${i}` } })).body.id as string);
    for (const id of spaces) expect((await s.api('PATCH', `/v1/spaces/${id}`, { body: { title: 'Renamed' } })).status).toBe(200);
    for (const id of spaces) expect(await ringRows(`space/${id}`)).toEqual([]);
    expect(await ringsOf(org)).toEqual([`auditring/${org}/local`]);
    // The organization's creation, three spaces' and three renames: all in the one ring, all listed.
    expect((await ringRows(`auditring/${org}/local`)).length).toBe(7);
    expect((await listed(org)).length).toBe(7);
  });

  it('are one per process on a shared store, each listed', async () => {
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Shared' } })).body.id as string;
    const [a, b] = [otherProcess(), otherProcess()];
    await a(space, 'By A');
    await b(space, 'By B');
    await a(space, 'By A again');
    const rings = (await ringsOf(org)).filter((h) => h !== `auditring/${org}/local`);
    expect(rings.length).toBe(2);
    expect(rings.every((h) => h.startsWith(`auditring/${org}/`))).toBe(true);
    expect((await Promise.all(rings.map(ringRows))).map((r) => r.length).sort()).toEqual([1, 2]);
    expect((await listed(org)).length).toBe(5);
  });

  it('of a process gone are moved to the segments by the first event of a new ring', async () => {
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Handed over' } })).body.id as string;
    await otherProcess()(space, 'By a CLI command');
    const gone = (await ringsOf(org)).find((h) => h !== `auditring/${org}/local`)!;
    clock.advance(IDLE_RING_MS + 1);
    await otherProcess()(space, 'By the next one');
    expect(await ringRows(gone)).toEqual([]);
    // The new ring only: this process's own ring (the creations) had been idle as long, and went too.
    const rings = await ringsOf(org);
    expect(rings.length).toBe(1);
    expect(rings[0]).not.toBe(gone);
    expect((await listed(org)).length).toBe(4);
  });

  it("of a process gone are moved to the segments by another process's sweep, nothing lost", async () => {
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Left' } })).body.id as string;
    await otherProcess()(space, 'By a process that then stopped');
    const gone = (await ringsOf(org)).find((h) => h !== `auditring/${org}/local`)!;
    const before = await listed(org);
    expect(before.length).toBe(3);
    clock.advance(IDLE_RING_MS + 1);
    // This process's ring fills (RING events with the two creations) and moves: its first move sweeps.
    for (let i = 0; i <= RING - 2; i++) await s.api('PATCH', `/v1/spaces/${space}`, { body: { title: `T${i}` } });
    expect(await ringRows(gone)).toEqual([]);
    expect(await ringsOf(org)).toEqual([`auditring/${org}/local`]);
    const segments = await s.ctx.store.read((tx) => tx.find(AuditEvents, 'organization', org).map((e) => e.id.slice(-36)));
    for (const id of before) expect(segments).toContain(id);
    const after = await listed(org);
    expect(after.length).toBe(before.length + RING - 1);
    for (const id of before) expect(after).toContain(id);
  });
});
