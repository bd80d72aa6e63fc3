import type { Store, WriteTx } from '../store/port.js';

/**
 * What an operation's writes carry with them (docs/manual/audit.md#recorded-in-the-same-commit):
 * `invoke` gives a write operation's handler a context whose store runs each write function
 * through `wrap`, so that the audit event of that write is put in the same transaction (the same
 * commit: no acknowledged write without its event, no event of a write that failed, no second
 * commit). Writes made on the process's own context (background work, fixtures) are not wrapped.
 * A context, not an AsyncLocalStorage: on Node 20 a storage once run makes every promise of the
 * process about three times dearer (measured: the durable write load at half its rate).
 */
export interface WriteHook {
  wrap<R>(fn: (tx: WriteTx) => R): (tx: WriteTx) => R;
}

/** `store` with every write run through `hook`; reads and the rest as they are. */
export function hookedStore(store: Store, hook: WriteHook): Store {
  return {
    read: (fn) => store.read(fn),
    write: (fn) => store.write(hook.wrap(fn)),
    ...(store.claim ? { claim: (job: string) => store.claim!(job) } : {}),
    ...(store.health ? { health: () => store.health!() } : {}),
    close: () => store.close(),
  };
}
