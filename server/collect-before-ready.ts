import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// A fresh `docs serve`'s first full garbage collection (mark-compact) came during its first
// requests: V8 sets the process's first old-generation limit from the scavenges of its start
// (about what survived them + 8 MB), and the first content read's rows pushed the heap past it;
// the collection (5–15 ms of main-thread CPU with its incremental marking steps) then landed on
// whichever small read came next, 10–20× its warm cost (docs/manual/performance.md, "First
// requests"). V8's flags for a larger first limit (--initial-old-space-size) are read only when
// the process starts: set later (v8.setFlagsFromString) they change nothing. One collection at the
// end of the warm-up sets the limit from what is live then, with room for the first requests.

/** What a collection before ready may cost: none above this much heap in use (a large store's start). */
export const collectLimits = { maxUsedBytes: 48 * 1024 * 1024 };

/** Collections run (tests). */
export const collectStats = { runs: 0 };

/**
 * Runs one full collection now, unless the heap in use is above `collectLimits.maxUsedBytes`.
 * V8's `gc` is taken with --expose-gc set and set back at once (unless the process exposed it
 * itself), so that the code cache bin/cli-bundle.cjs writes at exit carries the flags the process
 * started with (V8 rejects a cache made under other flags; commands/_lib/without-optimizer.ts
 * does the same). True when it collected.
 */
export function collectBeforeReady(): boolean {
  if (getHeapStatistics().used_heap_size > collectLimits.maxUsedBytes) return false;
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  gc();
  collectStats.runs++;
  return true;
}
