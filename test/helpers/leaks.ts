import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { Server } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

// Run around every test file (vitest setupFiles): the environment is put back as it was before
// the file, the file's temp directories (tempDir(), in the run's own TMPDIR,
// test/helpers/global-setup.ts) are removed after it, and a listening server the
// file started and did not close fails it, naming its address (issue 31, "Bad input"; the run's
// teardown checks child processes and what is left in TMPDIR).

const created: string[] = ((globalThis as any)[Symbol.for('docs.test.tempDirs')] ??= []);

const listening = () =>
  (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h): h is Server => h instanceof Server && h.listening);

let before: Set<Server>;
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
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
  // A close() called in the file's own afterAll may still be finishing.
  let left: Server[] = [];
  for (let i = 0; i < 20; i++) {
    left = listening().filter((s) => !before.has(s));
    if (!left.length) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  const where = left.map((s) => JSON.stringify(s.address())).join(', ');
  for (const s of left) s.close();
  throw new Error(`this file left ${left.length} server(s) listening: ${where} (close them in afterAll)`);
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
