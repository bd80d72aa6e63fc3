import { AsyncLocalStorage } from 'node:async_hooks';
import type { WriteTx } from '../store/port.js';

/**
 * What an operation's writes carry with them (docs/manual/audit.md#recorded-in-the-same-commit):
 * `invoke` runs a write operation's handler inside a scope, and the store, when a write is queued
 * within it, runs the write function through `wrap`, so that the audit event of that write is put
 * in the same transaction (the same commit: no acknowledged write without its event, no event of
 * a write that failed, no second commit). Writes queued outside any scope (background work, tests
 * writing fixtures) are not wrapped.
 */
export interface WriteHook {
  wrap<R>(fn: (tx: WriteTx) => R): (tx: WriteTx) => R;
}

export const writeScope = new AsyncLocalStorage<WriteHook>();
