import { setFlagsFromString } from 'node:v8';

/**
 * Runs `work` with V8's optimizing compiler (TurboFan) off. A computation that runs once, for a
 * few hundred milliseconds, in a process that then exits (`docs openapi diff` of two large specs)
 * spends more compiling its hot functions in the background than their optimized code saves:
 * the diff of the GitBook specs 0.146.0 and 0.202.0 took 258 → 202 ms of CPU with it off
 * (issue 30). The flag is set back afterwards, so that the code cache bin/cli-bundle.cjs may
 * write at exit carries the usual flags (V8 rejects a cache made under other flags); left alone
 * when node was started with V8 flags of its own (NODE_OPTIONS, node --...).
 */
export function withoutOptimizer<T>(work: () => T, ownFlags = process.execArgv.length > 0 || Boolean(process.env.NODE_OPTIONS?.includes('--'))): T {
  if (ownFlags) return work();
  setFlagsFromString('--no-turbofan');
  try {
    return work();
  } finally {
    setFlagsFromString('--turbofan');
  }
}
