import { performance } from 'node:perf_hooks';

// A fresh `docs serve` ran ~0.7 ms more of main-thread CPU in the 1–5 ms after serve() returned,
// with no request (the warm-up connection's close, the collection's trailing tasks, I/O of the
// start completing): a client that sent its first request as soon as it read the ready line had
// it run beside that work, and paid for it (docs/manual/performance.md, "First requests"). The
// ready line waits until a turn of the event loop ran nothing else.

/** Bounds of `settled` (tests change them). */
export const settleLimits = {
  /** The turn that must be quiet. */
  turnMs: 1,
  /** At most this much of it may be spent running callbacks. */
  busyMs: 0.1,
  /** The longest wait, however busy the loop stays (a store's workers, a steady load). */
  maxMs: 25,
};

/**
 * Resolves once a `turnMs` turn of the event loop spent no more than `busyMs` running callbacks
 * (performance.eventLoopUtilization), or `maxMs` after the call at the latest.
 */
export async function settled(): Promise<void> {
  const { turnMs, busyMs, maxMs } = settleLimits;
  const t0 = performance.now();
  let before = performance.eventLoopUtilization();
  for (;;) {
    await new Promise((r) => setTimeout(r, turnMs));
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, before).active;
    before = now;
    if (busy <= busyMs || performance.now() - t0 >= maxMs) return;
  }
}
