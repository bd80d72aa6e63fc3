import { execFileSync } from 'node:child_process';
import { Script } from 'node:vm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { collectBeforeReady, collectLimits, collectStats } from '../../server/collect-before-ready.js';
import { serve } from '../../server/serve.js';
import { tempDir } from '../helpers/server.js';

// Issue 28 item 1: a fresh docs serve's first full garbage collection came during its first
// requests and landed on one of them (docs/manual/performance.md, "First requests"); with its
// warm-up, serve() runs it before it returns (server/collect-before-ready.ts).

// Test files share a worker process (vitest.config.ts), whose heap may hold more than the bound:
// lifted here, and tested on its own last.
const saved = { ...collectLimits };
beforeEach(() => {
  collectLimits.maxUsedBytes = Number.POSITIVE_INFINITY;
});
afterEach(() => {
  Object.assign(collectLimits, saved);
});

test('with warmUp, serve() runs one full collection before it returns; without, none', async () => {
  const before = collectStats.runs;
  const served = await serve({ dataDir: tempDir(), port: 0, warmUp: true });
  try {
    expect(collectStats.runs).toBe(before + 1);
  } finally {
    await served.close();
  }
  const plain = await serve({ dataDir: tempDir(), port: 0 });
  try {
    expect(collectStats.runs).toBe(before + 1);
  } finally {
    await plain.close();
  }
}, 60_000);

test("the collection leaves V8's flags as they were: the code cache written at exit stays the one a next start takes", () => {
  // A code cache's header holds a hash of V8's flags when it was made (bytes 12-15, after V8's
  // magic, version and source hash), which a process started with other flags rejects: the
  // header made here after a collection is the one a process just started with these flags makes.
  const source = 'function twice(x) { return x * 2 } twice(21)';
  const header = `const { Script } = require('node:vm'); const s = new Script(${JSON.stringify(source)}); s.runInThisContext(); process.stdout.write(s.createCachedData().subarray(0, 16).toString('hex'))`;
  const exposed = typeof (globalThis as { gc?: unknown }).gc;
  expect(collectBeforeReady()).toBe(true);
  const fresh = execFileSync(process.execPath, [...process.execArgv, '-e', header], { encoding: 'utf8' });
  const s = new Script(source);
  s.runInThisContext();
  expect(s.createCachedData().subarray(0, 16).toString('hex')).toBe(fresh);
  expect(typeof (globalThis as { gc?: unknown }).gc).toBe(exposed);
});

test('no collection above the bound of heap in use (a large store: its cost grows with the heap)', () => {
  collectLimits.maxUsedBytes = 0;
  const before = collectStats.runs;
  expect(collectBeforeReady()).toBe(false);
  expect(collectStats.runs).toBe(before);
});
