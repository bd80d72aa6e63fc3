import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

// Once per `vitest run`, in vitest's own process, before any test file and after the last:
// - the sweeps' seed (test/helpers/sample.ts): DOCS_TEST_SEED, chosen here when unset so every
//   worker draws the same sample, printed at the start and again at the end;
// - issue 31, "Bad input": a test that leaves a process, a listening port or a temp directory
//   behind fails the run. Every process a test starts inherits DOCS_TEST_RUN (a per-run id) and
//   TMPDIR (a per-run folder, so os.tmpdir() and every tempDir() of the run are in it). At the end,
//   a process still carrying the id (other than vitest's own workers), which also means any port
//   it listens on, or anything left in the run's folder fails the run, naming them. (A server left
//   listening inside a test process is caught after its file: test/helpers/leaks.ts.)

const run = `${process.pid}-${Date.now().toString(36)}`;
let folder: string;
let previousTmp: string | undefined;

export default function setup(project: TestProject) {
  // With projects it is called per project: the first call of the run owns the checks.
  if (process.env.DOCS_TEST_RUN) return;
  process.env.DOCS_TEST_SEED ??= String(Math.floor(Math.random() * 2 ** 31));
  process.env.DOCS_TEST_RUN = run;
  previousTmp = process.env.TMPDIR;
  folder = mkdtempSync(join(tmpdir(), 'docs-test-run-'));
  process.env.TMPDIR = folder;
  const full = project.config.env?.DOCS_TEST_FULL === '1' || process.env.DOCS_TEST_FULL === '1';
  const note = () =>
    `sweeps: ${full ? 'every case' : `a seeded sample, DOCS_TEST_SEED=${process.env.DOCS_TEST_SEED} repeats it (npm run test:full for every case)`}`;
  console.log(note());
  return async () => {
    console.log(note());
    const problems = [...(await leftProcesses()), ...leftFiles()];
    rmSync(folder, { recursive: true, force: true });
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    if (problems.length) throw new Error(`tests left these behind (issue 31, "Bad input"):\n  ${problems.join('\n  ')}`);
  };
}

/** Processes started by this run's tests still alive after a grace period (then ended). */
async function leftProcesses(): Promise<string[]> {
  const find = () => {
    const out: { pid: number; what: string }[] = [];
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!pid || pid === process.pid) continue;
      try {
        if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`DOCS_TEST_RUN=${run}`)) continue;
        const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // vitest's own children (its workers, esbuild's service) end with it.
        if (Number(fields[1]) === process.pid || fields[0] === 'Z') continue;
        out.push({ pid, what: readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 160) });
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
    return out;
  };
  if (process.platform !== 'linux') return [];
  let left = find();
  for (let i = 0; left.length && i < 30; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = find();
  }
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left.map((p) => `process ${p.pid}: ${p.what}`);
}

function leftFiles(): string[] {
  try {
    return readdirSync(folder).map((name) => `temp entry ${join(folder, name)}`);
  } catch {
    return [];
  }
}
