import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// `docs serve` sizes libuv's thread pool to 16 (bin/run.cjs): commits to many spaces fsync side
// by side instead of queueing behind 4 threads. A size the user set is kept. Counted as the
// threads of the process (Linux), one server with the default against one told 4: the pool is
// all the difference (libuv starts every pool thread at once).

const threads = (pid: number) => readdirSync(`/proc/${pid}/task`).length;

async function threadsOf(env: Record<string, string>) {
  const srv = await spawnServe(['--quiet', '--data', tempDir()], env);
  try {
    // A request that reads the store: the pool is started by then, whatever started it.
    expect((await fetch(`${srv.url}/health`)).status).toBe(200);
    return threads(srv.child.pid!);
  } finally {
    srv.child.kill('SIGTERM');
    await srv.exited;
  }
}

describe.runIf(process.platform === 'linux')('docs serve and the thread pool', () => {
  it('runs 16 pool threads by default, and the number the user sets in UV_THREADPOOL_SIZE', async () => {
    const byDefault = await threadsOf({ UV_THREADPOOL_SIZE: '' });
    const told = await threadsOf({ UV_THREADPOOL_SIZE: '4' });
    expect(byDefault - told).toBe(12);
  }, 60_000);
});
