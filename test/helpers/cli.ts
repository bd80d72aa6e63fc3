import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/kernel/root.js';
import { runInProcess } from './in-process-cli.js';
import { requireFreshBuild } from './built.js';

export const BIN = join(packageRoot(), 'bin', 'run.cjs');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
  json: any;
}

/**
 * Runs a `docs` command as a user or a CI script would (no TTY), and answers as a process would:
 * exit status, stdout, stderr. In this process, from the source (./in-process-cli.ts: oclif's
 * run() with one Config, output captured, `env` applied for the run and restored): `await` it.
 * Tests about processes themselves (locks between processes, signals, crashes, start-up, the
 * built bundle) use `docsProcess`/`docsAsync`, a real child process of the built CLI.
 * DOCS_TEST_SPAWN=1 runs every call as a process of the built CLI instead (to compare).
 */
export async function docs(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  if (process.env.DOCS_TEST_SPAWN) return docsAsync(args, env);
  return withJson(await runInProcess(args, env));
}

/** Runs the built `docs` executable in its own process. */
export function docsProcess(args: string[], env: Record<string, string | undefined> = {}): CliResult {
  requireFreshBuild();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, ...env },
    timeout: 30_000,
  });
  return withJson({ status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr });
}

/**
 * Runs the built `docs` executable in its own process without blocking this one: for a command
 * talking to a server this test process runs, or commands side by side (`cwd`: for commands that
 * save into the current folder).
 */
export function docsAsync(args: string[], env: Record<string, string | undefined> = {}, opts: { cwd?: string } = {}): Promise<CliResult> {
  requireFreshBuild();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve(withJson({ status: code ?? -1, stdout, stderr })));
  });
}

function withJson(r: { status: number; stdout: string; stderr: string }): CliResult {
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {}
  return { ...r, json };
}

/** Starts `docs serve` as a child process and resolves once it prints its URL. */
export async function spawnServe(args: string[], env: Record<string, string> = {}) {
  requireFreshBuild();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /API at (http:\/\/\S+)\/v1/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`docs serve exited ${code}: ${out}${err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url, exited, output: () => out, errors: () => err };
}

/** Whether util-linux `script` is here to give a command a pseudo-terminal (inTerminal). */
export const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * Runs shell lines in a pseudo-terminal `cols` wide (util-linux `script`), as a person at a
 * terminal: stdin and stdout are TTYs; `$D` is the built CLI. Colors on unless the lines set
 * NO_COLOR. Answers the terminal's output (both streams, CRLF turned to LF). Without blocking
 * this process: a server started here (startServer) answers the commands meanwhile.
 */
export function inTerminal(lines: string[], env: Record<string, string | undefined>, cols = 72): Promise<string> {
  requireFreshBuild();
  const child = spawn('script', ['-qec', [`stty cols ${cols} rows 50`, ...lines].join('\n'), '/dev/null'], {
    env: {
      ...process.env,
      DOCS_API_URL: undefined,
      DOCS_TOKEN: undefined,
      NO_COLOR: undefined,
      FORCE_COLOR: undefined,
      TERM: 'xterm-256color',
      D: `${process.execPath} ${BIN}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const timer = setTimeout(() => child.kill(), 60_000);
  return new Promise((resolve, reject) =>
    child.on('close', (status) => {
      clearTimeout(timer);
      if (status !== 0) reject(new Error(`script exited ${status}: ${err}${out}`));
      else resolve(out.replace(/\r\n/g, '\n'));
    }),
  );
}

/**
 * Runs `docs ARGS` (the built CLI) on a pseudo-terminal (util-linux `script`) and types at its
 * prompts: at each step, once the screen shows `when` (ANSI codes removed), `keys` are typed.
 * Waits for what it expects, never for a fixed time; a run still going after `timeoutMs` is
 * killed (status null). Answers the exit status and the terminal's output.
 */
export function onTerminal(
  args: string[],
  env: Record<string, string | undefined>,
  steps: [when: RegExp, keys: string][],
  timeoutMs = 15_000,
): Promise<{ status: number | null; out: string }> {
  requireFreshBuild();
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, DOCS_API_URL: '', DOCS_TOKEN: '', ...env, TERM: 'xterm', COLUMNS: '120' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let step = 0;
  const onData = (d: Buffer) => {
    out += d.toString();
    // The screen redraws: the whole output so far, ANSI codes removed, is matched at each step.
    while (step < steps.length && steps[step]![0].test(out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))) child.stdin.write(steps[step++]![1]);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill(), timeoutMs);
  return new Promise((resolve) => child.on('exit', (status) => (clearTimeout(timer), resolve({ status, out }))));
}
