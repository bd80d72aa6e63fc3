import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/kernel/root.js';

export const BIN = join(packageRoot(), 'bin', 'run.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the built `docs` executable, as a user or a CI script would (no TTY). */
export function docs(args: string[], env: Record<string, string | undefined> = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, ...env },
    timeout: 30_000,
  });
  let json: any;
  try {
    json = JSON.parse(r.stdout);
  } catch {}
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}

/** Starts `docs serve` as a child process and resolves once it prints its URL. */
export async function spawnServe(args: string[], env: Record<string, string> = {}) {
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
