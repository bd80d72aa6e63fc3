import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { Server } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { openFilesUnder } from './open-files.js';

// Run around every test file (vitest setupFiles): the environment is put back as it was before
// the file, the file's temp directories (tempDir(), in the run's own TMPDIR,
// test/helpers/global-setup.ts) are removed after it, and what the file opened and did not
// close fails it: a listening server (its address), a store (its data directory or database and
// the test line that opened it), a file of the run's temp folder still open (its path: a search
// index, a stream). Issue 31, "Bad input"; the run's teardown checks child processes and what is
// left in TMPDIR.

const created: string[] = ((globalThis as any)[Symbol.for('docs.test.tempDirs')] ??= []);

/**
 * The stores open in this worker (src/store/open-watch.ts: a FileBackend or PgBackend adds itself
 * at open, removes itself at close), with the stack of the call that opened them, formatted only
 * when one is reported. A store left open keeps its journal's file handle, which the garbage
 * collector closes later, during another file's test (Node 24 then writes a warning to stderr).
 */
interface Opened {
  what: string;
  /** The test running when it opened (none at a file's top level or in its beforeAll). */
  test?: string;
  at: Error;
  backend: { close(): Promise<void> };
}
const openStores: Map<object, Opened> = ((globalThis as any)[Symbol.for('docs.test.openStores')] ??= new Map());
// Installed again by each file's run of this module: its `expect` is the file's (a file of the
// `isolated` project has a module graph of its own).
(globalThis as any)[Symbol.for('docs.openWatcher')] = {
  opened(backend: Opened['backend'], what: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40;
    const at = new Error('opened');
    Error.stackTraceLimit = limit;
    openStores.set(backend, { what, test: expect.getState().currentTestName, at, backend });
  },
  closed(backend: object) {
    openStores.delete(backend);
  },
};

/** The test files' lines in `stack` (where a store was opened), else its first frames. */
function testLines(at: Error): string {
  const frames = (at.stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().replace(/^at /, ''));
  const ours = frames.filter((f) => /\/test\//.test(f) && !/node_modules|test\/helpers\/leaks\.ts/.test(f));
  return (ours.length ? ours : frames)
    .slice(0, 3)
    .map((f) => f.replace(`${process.cwd()}/`, ''))
    .join(' < ');
}

const listening = () =>
  (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h): h is Server => h instanceof Server && h.listening);

/**
 * The files in the run's temp folder (test/helpers/global-setup.ts) this process has open: what
 * a store, a search index or a stream the file left open still holds, even once the garbage
 * collector took the object (a FileHandle it collected is closed, with a warning).
 */
const openTempFiles = (): Set<string> => {
  const run = process.env.TMPDIR;
  return run?.includes('docs-test-run-') ? openFilesUnder(run) : new Set();
};

let before: Set<Server>;
const filesBefore = openTempFiles();
// Taken before the file is imported too (its top level may open a store).
const storesBefore = new Set(openStores.keys());
// Taken before the file is imported (its top level may set variables).
const env: NodeJS.ProcessEnv = { ...process.env };
const started = { wall: performance.now(), cpu: cpuTicks() };
let file = '';
beforeAll((suite) => {
  before = new Set(listening());
  file = (suite as { filepath?: string }).filepath ?? suite.name;
});

afterAll(async () => {
  logCost();
  // Files share a process (isolate: false): one file's environment does not reach the next.
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  Object.assign(process.env, env);
  // A close() called in the file's own afterAll may still be finishing.
  let left: Server[] = [];
  let stores: Opened[] = [];
  let files: string[] = [];
  for (let i = 0; i < 20; i++) {
    left = listening().filter((s) => !before.has(s));
    stores = [...openStores].filter(([b]) => !storesBefore.has(b)).map(([, o]) => o);
    files = [...openTempFiles()].filter((f) => !filesBefore.has(f));
    if (!left.length && !stores.length && !files.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const problems: string[] = [];
  if (left.length) {
    problems.push(`this file left ${left.length} server(s) listening: ${left.map((s) => JSON.stringify(s.address())).join(', ')} (close them in afterAll)`);
    for (const s of left) s.close();
  }
  if (stores.length) {
    problems.push(
      `this file left ${stores.length} store(s) open (close them: in a finally, or afterEach/afterAll):\n${stores.map((o) => `  ${o.what}, opened${o.test ? ` in "${o.test}"` : ''} at ${testLines(o.at)}`).join('\n')}`,
    );
    // Closed here, before their directories go: the next file starts with none of them.
    for (const o of stores) {
      openStores.delete(o.backend);
      await o.backend.close().catch(() => {});
    }
  }
  // Those stores' journals are named above already.
  if (stores.length) files = [...openTempFiles()].filter((f) => !filesBefore.has(f));
  if (files.length) {
    const run = `${process.env.TMPDIR}/`;
    problems.push(
      `this file left ${files.length} file(s) of the run's temp folder open (a search index, a stream, a handle not closed):\n${files.map((f) => `  fd ${f.replace(run, '$TMPDIR/')}`).join('\n')}`,
    );
  }
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
  if (problems.length) throw new Error(problems.join('\n'));
});

/**
 * DOCS_TEST_CPU_LOG=FILE: a JSON line per test file with its wall time and the CPU time it cost
 * (this process, and the child processes it started and waited for: /proc/self/stat's utime,
 * stime, cutime, cstime). On a machine shared with other work the wall time says little; the CPU
 * time is what a file costs wherever it runs (CONTRIBUTING.md, "Figures").
 */
function logCost() {
  const log = env.DOCS_TEST_CPU_LOG;
  const now = cpuTicks();
  if (!log || !now || !started.cpu) return;
  const ms = (i: number) => (now[i]! - started.cpu![i]!) * 10;
  appendFileSync(
    log,
    `${JSON.stringify({ file: file.replace(`${process.cwd()}/`, ''), wallMs: Math.round(performance.now() - started.wall), cpuMs: ms(0) + ms(1) + ms(2) + ms(3), childrenMs: ms(2) + ms(3) })}\n`,
  );
}

/** utime, stime, cutime, cstime of this process in clock ticks (10 ms on Linux), or undefined elsewhere. */
function cpuTicks(): number[] | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    return stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 15)
      .map(Number);
  } catch {
    return undefined;
  }
}
