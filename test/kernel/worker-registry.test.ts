import { describe, expect, it } from 'vitest';
import { trackScan } from '../../src/kernel/worker-registry.js';

// A worker's scan of waiting work fails while the store is unavailable (PostgreSQL away): the
// worker must look again by itself, or work left waiting would stay so until some request kicks it.

describe('trackScan', () => {
  it('looks again after a failed scan, and only then', async () => {
    const settled = new Set<Promise<void>>();
    let retries = 0;
    let scans = 0;
    const kick = () => {
      retries++;
      trackScan(settled, 'test', scan, kick, 10);
    };
    // Fails twice (the store away), then finds the store back.
    const scan = async () => {
      if (++scans <= 2) throw new Error('PostgreSQL store is unavailable');
    };
    trackScan(settled, 'test', scan, kick, 10);
    const until = Date.now() + 2_000;
    while (scans < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50)); // a successful scan asks for nothing more
    expect(scans).toBe(3);
    expect(retries).toBe(2);
    expect(settled.size).toBe(0);
  });
});
