import { describe, expect, it } from 'vitest';
import { openContext } from '../../src/open.js';
import { spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';
import { Organizations } from '../../src/organizations/tables.js';

const TOKEN = 'gb_api_durability';

/** Creates organizations from `workers` concurrent clients until told to stop; returns acknowledged ids. */
async function load(url: string, workers: number, stop: () => boolean, acked: string[] = []) {
  let n = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stop() && n < 2000) {
        const title = `Org ${n++}`;
        try {
          const r = await fetch(`${url}/v1/orgs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
            body: JSON.stringify({ title }),
          });
          if (r.status === 201) acked.push(((await r.json()) as any).id);
        } catch {
          return; // the server went away
        }
      }
    }),
  );
  return acked;
}

async function storedOrgIds(dir: string) {
  const ctx = await openContext(dir);
  const ids = new Set(await ctx.store.read((tx) => tx.all(Organizations).map((o) => o.id)));
  await ctx.store.close();
  return ids;
}

describe('durability of acknowledged writes', () => {
  it('loses nothing on SIGTERM under load: in-flight requests finish, then the server exits 0', async () => {
    const dir = tempDir();
    const s = await spawnServe(['--data', dir, '--quiet'], { DOCS_BOOTSTRAP_TOKEN: TOKEN });
    let stopped = false;
    const live: string[] = [];
    const running = load(s.url, 16, () => stopped, live);
    // Stop while writes are in flight: after a number of acknowledgements, not after a time (a
    // loaded machine would otherwise make the count vary).
    await expect.poll(() => live.length, { timeout: 20_000, interval: 5 }).toBeGreaterThan(50);
    s.child.kill('SIGTERM');
    const code = await s.exited;
    stopped = true;
    const acked = await running;
    expect(code).toBe(0);
    expect(acked.length).toBeGreaterThan(10);
    const stored = await storedOrgIds(dir);
    for (const id of acked) expect(stored.has(id), `acknowledged ${id}`).toBe(true);
  });

  it('loses no acknowledged write when killed with SIGKILL mid-load, and restarts cleanly (3 kills)', async () => {
    const dir = tempDir();
    const acked: string[] = [];
    for (let round = 0; round < 3; round++) {
      const s = await spawnServe(['--data', dir, '--quiet'], { DOCS_BOOTSTRAP_TOKEN: TOKEN });
      let stopped = false;
      const live: string[] = [];
      const running = load(s.url, 16, () => stopped, live);
      const target = 10 + Math.floor(Math.random() * 60); // a random moment of the load
      await expect.poll(() => live.length, { timeout: 20_000, interval: 2 }).toBeGreaterThan(target);
      s.child.kill('SIGKILL');
      await s.exited;
      stopped = true;
      acked.push(...(await running));
    }
    const stored = await storedOrgIds(dir);
    expect(acked.length).toBeGreaterThan(10);
    for (const id of acked) expect(stored.has(id), `acknowledged ${id}`).toBe(true);
  });
});
