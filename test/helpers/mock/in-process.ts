import { Config, run } from '@oclif/core';
import { packageRoot } from '../../../src/kernel/root.js';

// Runs `docs` commands inside the test process (oclif's `run(argv, config)`), one at a time, with
// stdout/stderr captured: ~150 commands against a mock cost a few seconds this way instead of a
// minute of process starts. Same built commands (dist/cli) as bin/run.js loads.

export interface RunResult {
  status: number;
  stdout: string;
  stderr: string;
}

let config: Promise<Config> | undefined;

export function cliConfig(): Promise<Config> {
  return (config ??= Config.load(packageRoot()));
}

export async function runInProcess(argv: string[]): Promise<RunResult> {
  const cfg = await cliConfig();
  let stdout = '';
  let stderr = '';
  const saved = { out: process.stdout.write, err: process.stderr.write, log: console.log, error: console.error, warn: console.warn, info: console.info };
  const line = (args: unknown[]) => args.map(String).join(' ') + '\n';
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  console.log = console.info = (...a: unknown[]) => void (stdout += line(a));
  console.error = console.warn = (...a: unknown[]) => void (stderr += line(a));
  let status = 0;
  process.exitCode = undefined;
  try {
    await run(argv, cfg);
    status = Number(process.exitCode ?? 0);
  } catch (err) {
    const e = err as Error & { oclif?: { exit?: number } };
    status = e.oclif?.exit ?? 1;
    if (status !== 0) stderr += `(thrown) ${e.stack ?? e.message}\n`;
  } finally {
    process.exitCode = undefined;
    Object.assign(process.stdout, { write: saved.out });
    Object.assign(process.stderr, { write: saved.err });
    Object.assign(console, { log: saved.log, error: saved.error, warn: saved.warn, info: saved.info });
  }
  return { status, stdout, stderr };
}
