import { defineConfig } from 'vitest/config';

// Two layers (issue 31; docs/manual: "Tests"):
// - `fast` (npm test): everything in process from the source, each exhaustive sweep as a seeded
//   sample (test/helpers/sample.ts), a handful of true-process tests of the built CLI;
// - `full` (npm run test:full, also in .ci/run): the sweeps whole (DOCS_TEST_FULL=1), Chromium,
//   the built bundle's smoke test.
// `npm run stress` (vitest.stress.config.ts) is the third: load, crashes, concurrency.

/** Files whose sweep is sampled in `fast` and whole in `full`. */
const SWEEPS = [
  'test/reliability/least-role.test.ts',
  'test/reliability/fuzz.test.ts',
  'test/contract/contract-sweep.test.ts',
  'test/transport/spec-mock-latest.test.ts',
  'test/transport/spec-mock-pinned.test.ts',
];

/** Only in `full`: Chromium, the built bundle. */
const FULL_ONLY = ['test/published/browser.test.ts', 'test/published/responsive.test.ts', 'test/smoke/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/leaks.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: FULL_ONLY },
      },
      {
        extends: true,
        test: { name: 'full', include: [...SWEEPS, ...FULL_ONLY], env: { DOCS_TEST_FULL: '1' } },
      },
    ],
  },
});
