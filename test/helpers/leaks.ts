import { rmSync } from 'node:fs';
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
beforeAll(() => {
  before = new Set(listening());
});

afterAll(async () => {
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
