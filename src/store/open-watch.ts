/**
 * Backends that hold files or connections (FileBackend's journal, PgBackend's pool) tell a
 * watcher when they open and close, when one is installed: the tests install one
 * (test/helpers/leaks.ts), so a test file that leaves a store open fails, naming it, instead of
 * its file handle being closed by the garbage collector during a later test (Node 24 warns on
 * stderr then). Nothing else installs one: each call is a lookup of an absent global.
 */
export interface OpenWatcher {
  opened(backend: object, what: string): void;
  closed(backend: object): void;
}

const KEY = Symbol.for('docs.openWatcher');

const watcher = (): OpenWatcher | undefined => (globalThis as { [KEY]?: OpenWatcher })[KEY];

export function watchOpened(backend: object, what: string): void {
  watcher()?.opened(backend, what);
}

export function watchClosed(backend: object): void {
  watcher()?.closed(backend);
}
