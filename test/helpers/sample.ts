// The exhaustive sweeps (every operation x roles, fuzz of every operation, the contract sweep,
// every command against the spec mocks, every bad flag value) run whole in `npm run test:full`
// (DOCS_TEST_FULL=1, the `full` vitest project) and as a seeded sample in `npm test`, so the fast
// run still has a chance to catch a regression in each. The seed is printed at the start and at
// the end of the run (test/helpers/global-setup.ts); DOCS_TEST_SEED=<seed> picks the same sample
// again: a failure of the fast run is reproducible.

/** Whether this run sweeps everything (the `full` project). */
export const FULL = process.env.DOCS_TEST_FULL === '1';

/** The run's seed: DOCS_TEST_SEED (global-setup.ts sets one when unset, shared by every worker). */
export const SEED = Number(process.env.DOCS_TEST_SEED ?? 1) >>> 0;

/** mulberry32: small, good enough to pick test cases or make a test's text, the same for a seed on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Every item in a full run; else `n` of them picked by the run's seed and `label` (each sweep its
 * own draw), in their original order (sweeps that order their cases keep that order).
 */
export function sample<T>(items: readonly T[], n: number, label: string, opts: { withPrevious?: (item: T) => boolean } = {}): T[] {
  if (FULL || items.length <= n) return [...items];
  const next = random(SEED ^ hash(label));
  const picked = new Set<number>();
  while (picked.size < n) picked.add(Math.floor(next() * items.length));
  // A case that may need the one before it (unpublishSite after publishSite: the operation
  // sweeps' writes run in table order on one world) brings it along.
  if (opts.withPrevious) for (const i of [...picked]) if (i > 0 && opts.withPrevious(items[i]!)) picked.add(i - 1);
  return items.filter((_, i) => picked.has(i));
}

/** A line for a sweep's failure message: how to run the same sample again, or all of it. */
export function sampleNote(label: string): string {
  return FULL ? `${label}: full sweep` : `${label}: sample of seed ${SEED} (DOCS_TEST_SEED=${SEED} repeats it; npm run test:full sweeps all)`;
}
