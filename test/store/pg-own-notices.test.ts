import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShardData } from '../../src/store/backend.js';
import { PgBackend } from '../../src/store/pg-backend.js';
import { postgresOrSkip, withFreshSchema } from '../helpers/postgres.js';

// A commit's notice goes to every listener of the channel, the sender's own too
// (docs/manual/performance.md, "Writes that keep up"): the sender skips its own without parsing
// it (a notice carries up to 7,900 bytes of shards); the other processes still take it whole.

const url = await postgresOrSkip();
const T = 30_000;
const page = (id: string, title: string): ShardData => ({ pages: { [id]: { id, title } } });

/** Resolves once `heard()` holds keys naming `key`, or fails after 10 s. */
async function until(heard: () => string[][], key: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!heard().some((k) => k.includes(key))) {
    if (Date.now() > deadline) throw new Error(`${key} not heard: ${JSON.stringify(heard)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!url)('own notices on PostgreSQL', () => {
  it(
    'the sender skips its own notice unparsed; the other process takes it with the shard',
    async () => {
      await withFreshSchema(
        url!,
        async (schema) => {
          const a = new PgBackend(url!, { schema, poolSize: 2 });
          const b = new PgBackend(url!, { schema, poolSize: 2 });
          try {
            await a.open();
            await b.open();
            const heardA: string[][] = [];
            const heardB: { keys: string[]; shards?: Map<string, unknown> }[] = [];
            a.subscribe((keys) => heardA.push(keys));
            b.subscribe((keys, shards) => heardB.push({ keys, shards }));
            await Promise.all([a.whenListening(), b.whenListening()]);
            const parse = vi.spyOn(JSON, 'parse');
            await a.commit(new Map([['k', page('p', 'v1')]]), new Map([['k', 0]]));
            await until(() => heardB.map((h) => h.keys), 'k');
            expect(heardB.find((h) => h.keys.includes('k'))!.shards?.get('k')).toMatchObject({ version: 1, data: page('p', 'v1') });
            // Notices come in commit order: once a hears b's later commit, its own came before.
            await b.commit(new Map([['j', page('q', 'v1')]]), new Map([['j', 0]]));
            await until(() => heardA, 'j');
            expect(heardA.some((k) => k.includes('k'))).toBe(false);
            // Parsed once, by b (both backends are in this process), not by a.
            const own = `{"from":${JSON.stringify(a.id)},`;
            expect(parse.mock.calls.filter(([s]) => typeof s === 'string' && s.startsWith(own))).toHaveLength(1);
          } finally {
            await Promise.all([a.close(), b.close()]);
          }
        },
        'pgown',
      );
    },
    T,
  );
});
