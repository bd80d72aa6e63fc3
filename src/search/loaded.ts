/**
 * Whether this process has loaded the search indexes' module (./indexes.ts sets it when it is
 * evaluated), by whatever path: a search (./service.ts) or the indexer (./indexer.ts, which
 * imports it itself). Closing a context's index files has nothing to do otherwise, and must not
 * load it; a flag of service.ts's own loads missed the indexer's, so a server that only indexed
 * (no search yet) left its index files open after it stopped.
 */
export const indexesModule = { loaded: false };
