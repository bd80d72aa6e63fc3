import { expect, test } from 'vitest';
import { settled, settleLimits } from '../../server/settle.js';

// Issue 28 item 1: `docs serve` ran ~0.7 ms of its start's trailing work in the few ms after it
// said it was ready, beside a first request sent at once. The ready line waits for `settled`
// (server/settle.ts, commands/serve.ts).

const burn = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

test('settled resolves once the work queued on the event loop has run', async () => {
  // Work that goes on for a few turns after the call, as the start's trailing callbacks do.
  let turns = 0;
  const next = () => {
    burn(0.5);
    if (++turns < 4) setTimeout(next, 1);
  };
  setTimeout(next, 0);
  // A bound far above the work's few ms: settled must find the loop quiet, not run out its time.
  const saved = { ...settleLimits };
  settleLimits.maxMs = 10_000;
  try {
    const t0 = performance.now();
    await settled();
    expect(turns).toBe(4);
    expect(performance.now() - t0).toBeLessThan(5_000);
  } finally {
    Object.assign(settleLimits, saved);
  }
});

test('settled resolves after maxMs at the latest when the loop stays busy', async () => {
  const saved = { ...settleLimits };
  settleLimits.maxMs = 30;
  const busy = setInterval(() => burn(0.5), 0);
  try {
    const t0 = performance.now();
    await settled();
    const took = performance.now() - t0;
    expect(took).toBeGreaterThanOrEqual(30);
    expect(took).toBeLessThan(5000);
  } finally {
    clearInterval(busy);
    Object.assign(settleLimits, saved);
  }
});
