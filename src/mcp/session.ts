import { selectTransport, type TransportOptions } from '../transport/select.js';
import type { Transport } from '../transport/types.js';
import type { Call } from './admin.js';

/**
 * Calls for a long-running `docs mcp`, on the transport any command would use. Over HTTP it is
 * kept; in-process, it holds the data directory only while calls run (and a moment after, for
 * the next call of a burst), so other commands and `docs serve` are not locked out while an
 * agent sits idle: the same as a sequence of CLI commands.
 */
export function mcpSession(options: TransportOptions, idleMs = 500): { call: Call; close(): Promise<void> } {
  let current: Promise<Transport> | undefined;
  let closing: Promise<void> = Promise.resolve();
  let inflight = 0;
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<Promise<unknown>>();

  const release = () => {
    const held = current;
    current = undefined;
    // The next call opens only once this close has let go of the lock.
    closing = closing.then(async () => {
      if (held) await (await held.catch(() => undefined))?.close();
    });
    return closing;
  };

  const run: Call = async (operationId, input) => {
    clearTimeout(timer);
    inflight++;
    try {
      await closing;
      const opening = (current ??= selectTransport(options));
      let transport: Transport;
      try {
        transport = await opening;
      } catch (err) {
        if (current === opening) current = undefined;
        throw err;
      }
      return await transport.call(operationId, input);
    } finally {
      if (--inflight === 0 && current) {
        const held = current;
        held.then(
          (t) => {
            if (!t.remote && inflight === 0 && current === held) timer = setTimeout(release, idleMs);
          },
          () => {},
        );
      }
    }
  };
  const call: Call = (operationId, input) => {
    const p = run(operationId, input);
    pending.add(p);
    void p.catch(() => {}).finally(() => pending.delete(p));
    return p;
  };
  return {
    call,
    /** Lets the calls in flight finish (their answers still go out), then lets go of the store. */
    close: async () => {
      await Promise.allSettled([...pending]);
      clearTimeout(timer);
      return release();
    },
  };
}
