import { expect, test, vi } from 'vitest';

// Issue 28 item 1: the first request of an operation against its warm latency. `docs serve`
// (commands/serve.ts) loads every area's handlers before it listens, so that no first request of
// an area waits for its module; tests' in-process servers load an area on its first call.

test('serve({ loadAreas: true }) has every operation loaded once it listens, before any request', async () => {
  vi.resetModules(); // a module graph of its own: the operations this worker's other files loaded do not count
  const { loadedOperation, OPERATION_IDS } = await import('../../src/operations.js');
  const { serve } = await import('../../server/serve.js');
  const lazy = await serve({ port: 0 });
  try {
    expect(OPERATION_IDS.filter((id) => !loadedOperation(id)).length).toBeGreaterThan(0); // otherwise the check below proves nothing
  } finally {
    await lazy.close();
  }
  const served = await serve({ port: 0, loadAreas: true });
  try {
    expect(OPERATION_IDS.filter((id) => !loadedOperation(id))).toEqual([]);
  } finally {
    await served.close();
  }
}, 60_000);
