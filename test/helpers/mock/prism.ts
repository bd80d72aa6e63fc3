import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../../src/kernel/root.js';

/** The two specs the CLI is checked against (package.json aliases). */
export const SPECS = {
  pinned: join(packageRoot(), 'node_modules', 'gitbook-api-0146', 'spec', 'openapi.json'),
  latest: join(packageRoot(), 'node_modules', 'gitbook-api-latest', 'spec', 'openapi.json'),
};

export interface Mock {
  url: string;
  stop(): Promise<void>;
}

/**
 * A Stoplight Prism mock of SPEC on 127.0.0.1 in a child process (prism-mock.mjs), resolved once it
 * listens. It stops when `stop` closes its stdin, or when this process dies (its stdin closes too).
 */
export function startPrism(spec: string, timeoutMs = 90_000): Promise<Mock> {
  const child = spawn(process.execPath, [join(packageRoot(), 'test', 'helpers', 'mock', 'prism-mock.mjs'), spec], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise<Mock>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`prism mock of ${spec} did not listen within ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        stop: async () => {
          child.stdin.end();
          const killer = setTimeout(() => child.kill(), 3000);
          await exited;
          clearTimeout(killer);
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism mock of ${spec} exited ${code}: ${out}`));
    });
  });
}
