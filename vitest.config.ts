import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Two layers (issue 31; docs/manual: "Tests"):
// - `fast` (npm test; with `isolated`, its files that need a module graph of their own): everything in process from the source, each exhaustive sweep as a seeded
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

/**
 * Files that need a module graph of their own (vitest's isolation): lazy-module-init calls
 * vi.resetModules() to load modules afresh, which in a shared graph gives the files after it new
 * instances of the modules they load; meta-schema counts compiles made in its process (of ajv's
 * prototypes, which another instance of its module may have patched first in a shared one: it
 * then counted 1); collect-before-ready compares V8's flags with a fresh process's, which flags
 * another file set in a shared worker (commands/_lib/without-optimizer.ts) would make differ. The rest of
 * the fast layer shares one per worker (isolate: false): oclif's Config of the in-process CLI, ajv's
 * compiled validators and the contract are loaded once per worker instead of once per file.
 * Audited for what a file could leave to the next: process.env is put back after each file and
 * temp directories removed, a server left listening or a store left open fails its file (test/helpers/leaks.ts); no
 * other file uses vi.mock, vi.resetModules or fake timers; the CLI runner restores what a command changed (env, argv,
 * exit code, oclif's help's ids: test/helpers/in-process-cli.ts); stores are per data directory.
 */
const ISOLATED: string[] = [
  'test/server/lazy-module-init.test.ts',
  'test/openapi/meta-schema.test.ts',
  'test/server/collect-before-ready.test.ts',
  'test/server/warm-up-write.test.ts',
  'test/search/indexer-close.test.ts',
];

/**
 * Started first, in this order: the files that take longest, which vitest would otherwise start
 * last on a clean clone (it orders files it has no timings for by size, and a spec-mock file is 5
 * lines long), leaving one worker with a long file after the other has run out of work.
 * Measured with DOCS_TEST_CPU_LOG (CONTRIBUTING.md, "Figures").
 */
const LONG_FIRST = [
  'test/transport/spec-mock-latest.test.ts',
  'test/transport/spec-mock-pinned.test.ts',
  'test/commands/push-cost.test.ts',
  'test/docs/manual-publish.test.ts',
  'test/e2e/org-env-cli.test.ts',
  'test/integrations/content-cli.test.ts',
];

/** vitest's order (longest known first, else largest), with LONG_FIRST ahead of it. */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId).split('\\').join('/'));
      return i < 0 ? LONG_FIRST.length : i;
    };
    return (await super.sort(files))
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

/** Only in `full`: Chromium, the built bundle. */
const FULL_ONLY = [
  'test/published/browser.test.ts',
  'test/published/insights-browser.test.ts',
  'test/published/responsive.test.ts',
  'test/published/api-browser.test.ts',
  'test/smoke/**/*.test.ts',
];

/** A module graph of its own for each file (vitest resets the modules between files), in a kept process. */
const OWN_GRAPH = { isolate: true, poolOptions: { forks: { isolate: true } } };

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two workers at least: vitest's default is one fewer than the cores, a single worker on this
    // 2-core machine, which leaves a core idle while a file waits on a child process, a timer, a
    // socket or the disk (CONTRIBUTING.md, "Figures"). Each worker loads its own
    // module graph once (isolate: false), so a second one costs one more cold start.
    // `isolate: false` here, at the root, is what keeps a worker process for the next file: the
    // pool reads the root's poolOptions, not a project's `isolate` (vitest 3.2: with it unset,
    // every file got a new process and loaded the whole graph again, `fast` included). Inside the
    // process, a project's poolOptions.forks.isolate decides whether its files share the module
    // graph: `fast` inherits false from here, the other projects set OWN_GRAPH.
    poolOptions: { forks: { maxForks: Math.max(2, availableParallelism() - 1), minForks: 1, isolate: false } },
    sequence: { sequencer: LongFirst },
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/leaks.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...FULL_ONLY, ...ISOLATED, 'test/published/lighthouse.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED.length ? ISOLATED : ['test/no-isolated-file'], ...OWN_GRAPH, passWithNoTests: true },
      },
      {
        extends: true,
        test: { name: 'full', include: [...SWEEPS, ...FULL_ONLY], env: { DOCS_TEST_FULL: '1' }, ...OWN_GRAPH },
      },
      {
        // Timed in a browser: alone, after the other layers (npm run test:lighthouse; .ci/run).
        extends: true,
        test: { name: 'lighthouse', include: ['test/published/lighthouse.test.ts'], env: { DOCS_TEST_FULL: '1' }, ...OWN_GRAPH },
      },
    ],
  },
});
