import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { RETENTION_MS } from '../../src/spaces/retention.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { Revisions, Spaces } from '../../src/spaces/tables.js';

const HOUR = 3600_000;
let s: TestServer;
let org: string;
const clock = new ManualClock();
beforeAll(async () => {
  // The sweeper runs often here so that its effect shows within a test.
  s = await startServer({ clock, sweepIntervalMs: 20 });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const space = async (body: object = {}) => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body })).body;
const rowOf = async (id: string) => (await s.ctx.store.read((tx) => tx.get(Spaces, id)))!;
const revisionOf = (id: string) => s.ctx.store.read((tx) => tx.get(Revisions, id));

describe('spaces: delete and restore', () => {
  it('delete sets deletedAt (205), hides the space everywhere, and 204 when nothing is there', async () => {
    const sp = await space({ title: 'Gone soon' });
    const r = await s.api('DELETE', `/v1/spaces/${sp.id}`);
    expect(r.status).toBe(205);
    expect((await rowOf(sp.id)).deletedAt).toBe(clock.now().toISOString());
    expect((await s.api('GET', `/v1/spaces/${sp.id}`)).status).toBe(404);
    expect((await s.api('PATCH', `/v1/spaces/${sp.id}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await s.api('POST', `/v1/spaces/${sp.id}/duplicate`)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/spaces`)).body.items.map((x: any) => x.id)).not.toContain(sp.id);
    expect((await s.api('DELETE', `/v1/spaces/${sp.id}`)).status).toBe(204);
    expect((await s.api('DELETE', '/v1/spaces/never')).status).toBe(204);
  });

  it('restores within 7 days (200), at the end of its collection; a live space cannot be restored (409)', async () => {
    const c = (await s.api('POST', `/v1/orgs/${org}/collections`, { body: { title: 'Keeps' } })).body;
    const a = await space({ title: 'A', parent: c.id });
    const b = await space({ title: 'B', parent: c.id });
    await s.api('DELETE', `/v1/spaces/${a.id}`);
    clock.advance(RETENTION_MS - HOUR);
    const r = await s.api('POST', `/v1/spaces/${a.id}/restore`);
    expect(r.status).toBe(200);
    expect(r.body.deletedAt).toBeUndefined();
    expect(r.body.parent).toBe(c.id);
    expect((await rowOf(a.id)).deletedAt).toBeUndefined();
    expect((await s.api('GET', `/v1/collections/${c.id}/spaces`)).body.items.map((x: any) => x.id)).toEqual([b.id, a.id]);
    const again = await s.api('POST', `/v1/spaces/${a.id}/restore`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`nothing to change: space ${a.id} is not deleted`);
    expect((await s.api('POST', '/v1/spaces/never/restore')).status).toBe(404);
  });

  it('after 7 days a restore finds nothing: the check on access purges the space and its content', async () => {
    // A server whose sweeper will not run during the test: only the check on access can purge.
    const own = new ManualClock();
    const s2 = await startServer({ clock: own, sweepIntervalMs: 3_600_000 });
    try {
      const o = (await s2.api('GET', '/v1/orgs')).body.items[0].id;
      const sp = (await s2.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'Expired' } })).body;
      const row = () => s2.ctx.store.read((tx) => tx.get(Spaces, sp.id));
      await s2.api('DELETE', `/v1/spaces/${sp.id}`);
      own.advance(RETENTION_MS);
      expect(await row()).toBeDefined(); // nobody swept it
      const r = await s2.api('POST', `/v1/spaces/${sp.id}/restore`);
      expect(r.status).toBe(404);
      expect(await row()).toBeUndefined();
      expect(await s2.ctx.store.read((tx) => tx.get(Revisions, sp.revision))).toBeUndefined();
      // GET reads the space, its counts and the check in one read; an expired one is purged all the same.
      const other = (await s2.api('POST', `/v1/orgs/${o}/spaces`, { body: { title: 'Read once' } })).body;
      const reads = vi.spyOn(s2.ctx.store, 'read');
      expect((await s2.api('GET', `/v1/spaces/${other.id}`)).body).toMatchObject({ id: other.id, title: 'Read once' });
      const perGet = reads.mock.calls.length;
      expect(perGet).toBe(2); // the caller's token, then the space (the check, its row and its counts)
      reads.mockClear();
      await s2.api('DELETE', `/v1/spaces/${other.id}`);
      own.advance(RETENTION_MS);
      reads.mockClear();
      expect((await s2.api('GET', `/v1/spaces/${other.id}`)).status).toBe(404);
      expect(reads.mock.calls.length).toBeGreaterThan(perGet);
      reads.mockRestore();
      expect(await s2.ctx.store.read((tx) => tx.get(Spaces, other.id))).toBeUndefined();
    } finally {
      await s2.stop();
    }
  });

  it('the sweeper of docs serve purges expired spaces without anyone asking', async () => {
    const sp = await space({ title: 'Swept' });
    const kept = await space({ title: 'Deleted later' });
    await s.api('DELETE', `/v1/spaces/${sp.id}`);
    clock.advance(RETENTION_MS / 2);
    await s.api('DELETE', `/v1/spaces/${kept.id}`);
    clock.advance(RETENTION_MS / 2);
    await expect.poll(() => rowOf(sp.id), { timeout: 3000, interval: 20 }).toBeUndefined();
    expect(await revisionOf(sp.revision)).toBeUndefined();
    // The one deleted 3.5 days ago is still restorable.
    expect(await rowOf(kept.id)).toBeDefined();
    expect((await s.api('POST', `/v1/spaces/${kept.id}/restore`)).status).toBe(200);
  });
});
