import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../../src/open.js';
import { spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { Spaces } from '../../src/spaces/tables.js';

// Crash safety: `docs serve` is killed with SIGKILL at random moments of a write-heavy load
// (creates, updates and deletes of collections and spaces), restarted, and checked: the store
// loads, every shard file parses, every acknowledged write is there, nothing half-written.

const TOKEN = 'gb_api_crash';
const KILLS = Number(process.env.STRESS_KILLS ?? 20);

interface Ack {
  kind: 'created' | 'renamed' | 'deleted';
  id: string;
  title?: string;
}

async function writeLoad(url: string, org: string, acks: Ack[], stop: () => boolean) {
  const h = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  let n = 0;
  const mine: string[] = [];
  await Promise.all(
    Array.from({ length: 12 }, async (_, w) => {
      while (!stop()) {
        const i = n++;
        try {
          if (i % 5 === 3 && mine.length) {
            const id = mine[(i * 7) % mine.length]!;
            const title = `Renamed ${i}`;
            const r = await fetch(`${url}/v1/spaces/${id}`, { method: 'PATCH', headers: h, body: JSON.stringify({ title }) });
            if (r.status === 200) acks.push({ kind: 'renamed', id, title });
          } else if (i % 5 === 4 && mine.length > 5) {
            const id = mine.splice((i * 3) % mine.length, 1)[0]!;
            const r = await fetch(`${url}/v1/spaces/${id}`, { method: 'DELETE', headers: h });
            if (r.status === 205) acks.push({ kind: 'deleted', id });
          } else {
            const r = await fetch(`${url}/v1/orgs/${org}/spaces`, { method: 'POST', headers: h, body: JSON.stringify({ title: `Space ${w}-${i}` }) });
            if (r.status === 201) {
              const id = ((await r.json()) as any).id;
              mine.push(id);
              acks.push({ kind: 'created', id });
            }
          }
        } catch {
          return; // killed
        }
      }
    }),
  );
}

describe('crash safety', () => {
  it(`keeps every acknowledged write across ${KILLS} SIGKILLs under a write-heavy load`, async () => {
    const dir = tempDir();
    const acks: Ack[] = [];
    let org = '';
    for (let round = 0; round < KILLS; round++) {
      const s = await spawnServe(['--data', dir, '--quiet'], { DOCS_BOOTSTRAP_TOKEN: TOKEN });
      org ||= ((await (await fetch(`${s.url}/v1/orgs`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as any).items[0].id;
      let stopped = false;
      const before = acks.length;
      const running = writeLoad(s.url, org, acks, () => stopped);
      const target = before + 5 + Math.floor(Math.random() * 60);
      await expect.poll(() => acks.length, { timeout: 30_000, interval: 2 }).toBeGreaterThan(target);
      s.child.kill('SIGKILL');
      await s.exited;
      stopped = true;
      await running;
    }
    // Every shard parses; no temp file or manifest is left once the store has been opened.
    const ctx = await openContext(dir);
    for (const f of readdirSync(join(dir, 'store'))) expect(() => JSON.parse(readFileSync(join(dir, 'store', f), 'utf8')), f).not.toThrow();
    expect(readdirSync(join(dir, 'store')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Replay the acknowledgements in order: the store must hold their net result.
    const expected = new Map<string, { deleted: boolean; title?: string }>();
    // (Titles are checked loosely below; ids, creations and deletions exactly.)
    for (const a of acks) {
      const cur = expected.get(a.id) ?? { deleted: false };
      if (a.kind === 'deleted') cur.deleted = true;
      if (a.kind === 'renamed') cur.title = a.title;
      expected.set(a.id, cur);
    }
    const rows = new Map((await ctx.store.read((tx) => tx.all(Spaces))).map((r) => [r.id, r]));
    for (const [id, want] of expected) {
      const row = rows.get(id)!;
      expect(row, `acknowledged space ${id}`).toBeDefined();
      if (want.deleted) expect(row.deletedAt, `deleted ${id}`).toBeTruthy();
      // An acknowledged rename is there, or a later rename of the same space replaced it (one
      // in flight at the kill may have been committed without its answer arriving).
      if (want.title && !want.deleted) expect(row.title, `renamed ${id}`).toMatch(/^Renamed \d+$/);
    }
    expect(acks.length).toBeGreaterThan(KILLS * 5);
    await ctx.store.close();
  }, 600_000);
});
