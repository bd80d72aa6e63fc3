import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { dropLease, LEASE_MS, takeLease, withLease } from '../../src/kernel/leases.js';
import { openContext } from '../../src/open.js';
import { freshSchemaName, dropSchema, postgresOrSkip } from '../helpers/postgres.js';

const pgUrl = await postgresOrSkip();

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

  it.skipIf(!pgUrl)('two processes on one PostgreSQL store: each job is taken by exactly one', async () => {
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
  }, 60_000);
});
