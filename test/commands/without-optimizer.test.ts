import { Script } from 'node:vm';
import { expect, it } from 'vitest';
import { withoutOptimizer } from '../../commands/_lib/without-optimizer.js';

// openapi diff runs its comparison with TurboFan off (issue 30); the flags must be as before
// afterwards, or the code cache bin/cli-bundle.cjs writes at exit would be rejected by the next
// run (V8 stores a hash of the flags in it: bytes 12-15).
const flagHash = () => new Script('(function () { return 1 })').createCachedData().subarray(12, 16).toString('hex');

it('passes the result and the error through, and leaves the V8 flags as they were (code cache accepted)', () => {
  const before = flagHash();
  // (false: as in the CLI, node started with no V8 flags; vitest's workers have some.)
  expect(withoutOptimizer(() => 42, false)).toBe(42);
  expect(flagHash()).toBe(before);
  expect(() =>
    withoutOptimizer(() => {
      throw new Error('boom');
    }, false),
  ).toThrow('boom');
  expect(flagHash()).toBe(before);
});
