import { describe, expect, it } from 'vitest';
import { searchIndexerIdle } from '../../src/search/indexer.js';
import { openFilesUnder } from '../helpers/open-files.js';
import { startServer, tempDir } from '../helpers/server.js';

// Its own process (the `isolated` project): the search module is loaded by the indexer alone,
// with no search before, as in a fresh `docs serve` that indexed and was stopped.

describe('a server that only indexed', () => {
  it('closes its index files when it stops', async () => {
    const dir = tempDir();
    const s = await startServer({ dataDir: dir });
    const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
    await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Indexed' } });
    await searchIndexerIdle(s.ctx);
    expect([...openFilesUnder(dir)].some((f) => f.includes('/search/'))).toBe(true); // the indexer opened them
    await s.stop();
    expect([...openFilesUnder(dir)]).toEqual([]);
  });
});
