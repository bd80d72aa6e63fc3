import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { dropLease, LEASE_MS, takeLease, withLease } from '../../src/kernel/leases.js';
import { openContext } from '../../src/open.js';
import { table } from '../../src/store/port.js';
import { freshSchemaName, dropSchema, postgresOrSkip } from '../helpers/postgres.js';

const pgUrl = await postgresOrSkip();
/** A row of this test's own in the meta table. */
const JobState = table<{ id: string; done: boolean }>('meta');

describe('job leases', () => {
  it('one owner at a time; free again when dropped or expired; never dropped by another owner', async () => {
    const clock = new ManualClock();
    const ctx = await openContext(undefined, { clock });
    expect(await takeLease(ctx, 'job:1', 'a')).toBe(true);
    expect(await takeLease(ctx, 'job:1', 'b')).toBe(false);
    expect(await takeLease(ctx, 'job:1', 'a')).toBe(true); // renewal
    await dropLease(ctx, 'job:1', 'b'); // not b's: kept
    expect(await takeLease(ctx, 'job:1', 'b')).toBe(false);
    clock.advance(LEASE_MS + 1); // a died
    expect(await takeLease(ctx, 'job:1', 'b')).toBe(true);
    await dropLease(ctx, 'job:1', 'b');
    let ran = 0;
    expect(await withLease(ctx, 'job:1', 'c', async () => void ran++)).toBe(true);
    expect(await takeLease(ctx, 'job:1', 'd')).toBe(true); // dropped after the run
    expect(await withLease(ctx, 'job:1', 'c', async () => void ran++)).toBe(false);
    expect(ran).toBe(1);
    await ctx.store.close();
  });

  it.skipIf(!pgUrl)(
    'two processes on one PostgreSQL store: each job is taken by exactly one',
    async () => {
      const schema = freshSchemaName('leases');
      const store = `${pgUrl}?schema=${schema}`;
      const [a, b] = [await openContext(undefined, { store }), await openContext(undefined, { store })];
      try {
        for (let i = 0; i < 20; i++) {
          const got = await Promise.all([takeLease(a, `job:${i}`, 'a'), takeLease(b, `job:${i}`, 'b'), takeLease(a, `job:${i}`, 'a2')]);
          expect(got.filter(Boolean), `job ${i}: ${got}`).toHaveLength(1);
        }
      } finally {
        await a.store.close();
        await b.store.close();
        await dropSchema(pgUrl!, schema);
      }
    },
    60_000,
  );

  it.skipIf(!pgUrl)(
    'on PostgreSQL a job is claimed (row locked, SKIP LOCKED) by one process while it runs, and freed when that process dies',
    async () => {
      const schema = freshSchemaName('claims');
      const store = `${pgUrl}?schema=${schema}`;
      const [a, b] = [await openContext(undefined, { store }), await openContext(undefined, { store })];
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: pgUrl! });
      await admin.connect();
      try {
        expect(a.store.claim).toBeTypeOf('function');
        const runs = new Map<string, number>();
        await Promise.all(
          Array.from({ length: 10 }, async (_, i) => {
            const key = `job:${i}`;
            let open!: () => void;
            const gate = new Promise<void>((r) => (open = r));
            const job = async () => {
              runs.set(key, (runs.get(key) ?? 0) + 1);
              await gate; // still running while the other process tries
            };
            const tries = [withLease(a, key, 'a', job), withLease(b, key, 'b', job)];
            // The loser answers at once (skipped, not waiting for the lock); then the winner may end.
            await Promise.race(tries.map((t) => t.then((ran) => (ran ? new Promise(() => {}) : undefined))));
            open();
            expect((await Promise.all(tries)).filter(Boolean), key).toHaveLength(1);
          }),
        );
        expect([...runs.values()]).toEqual(Array(10).fill(1));

        // A process dies holding a claim: its connection goes, and with it the lock.
        const held = await a.store.claim!('job:crash');
        expect(held).not.toBeNull();
        expect(await b.store.claim!('job:crash')).toBeNull();
        const backendId = (a.store as any).backend.id as string;
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [`docs-jobs-${backendId}`]);
        // The backend ends (and its locks go) as soon as PostgreSQL has noticed.
        let again = await b.store.claim!('job:crash');
        for (let i = 0; i < 50 && !again; i++) {
          await new Promise((r) => setTimeout(r, 50));
          again = await b.store.claim!('job:crash');
        }
        expect(again).not.toBeNull();
        await again!.release();
        await held!.release(); // its connection is gone: nothing to do, no error
      } finally {
        await admin.end();
        await a.store.close();
        await b.store.close();
        await dropSchema(pgUrl!, schema);
      }
    },
    60_000,
  );

  it.skipIf(!pgUrl)(
    'a process that claims a job has first heard of every commit made before (a slow listener cannot make it rerun a finished job)',
    async () => {
      const schema = freshSchemaName('claims_sync');
      const store = `${pgUrl}?schema=${schema}`;
      const [a, b] = [await openContext(undefined, { store }), await openContext(undefined, { store })];
      try {
        await a.store.write((tx) => tx.put(JobState, { id: 'job-state', done: false }));
        // b hears of it (asynchronously) and caches it.
        for (let i = 0; i < 100 && !(await b.store.read((tx) => tx.get(JobState, 'job-state'))); i++) await new Promise((r) => setTimeout(r, 20));
        expect(await b.store.read((tx) => tx.get(JobState, 'job-state')?.done)).toBe(false);
        // b's notifications arrive 300 ms late (in order), as on a busy network.
        const listener = (b.store as any).backend.listener;
        const emit = listener.emit.bind(listener);
        listener.emit = (event: string, ...args: unknown[]) =>
          event === 'notification' ? (setTimeout(() => emit(event, ...args), 300), true) : emit(event, ...args);
        const first = await a.store.claim!('job:once');
        await a.store.write((tx) => tx.put(JobState, { id: 'job-state', done: true }));
        await first!.release();
        const second = await b.store.claim!('job:once');
        expect(second).not.toBeNull();
        expect(await b.store.read((tx) => tx.get(JobState, 'job-state')!.done)).toBe(true);
        await second!.release();
      } finally {
        await a.store.close();
        await b.store.close();
        await dropSchema(pgUrl!, schema);
      }
    },
    60_000,
  );
});
