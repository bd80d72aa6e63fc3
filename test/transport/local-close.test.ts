import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { openFilesUnder } from '../helpers/open-files.js';
import { tempDir } from '../helpers/server.js';

// An in-process command (src/transport/select.ts, openLocal) closes what it opened on the data
// directory when it ends, refused or not: the store, and the index files its search opened on the
// search thread, which outlives the command in a process that runs several (the tests' in-process CLI).

it('a search run in process leaves no file of the data directory open', async () => {
  const data = tempDir();
  const env = { DOCS_DATA: data };
  const folder = tempDir();
  mkdirSync(join(folder, 'guides'));
  writeFileSync(join(folder, 'guides', 'herons.md'), '# Herons\n\nHerons nest in trees.\n');
  const space = (await docs(['spaces', 'create', '--title', 'Birds', '--json'], env)).json;
  const push = await docs(['content', 'push', folder, '--space', space.id, '--merge'], env);
  expect(push.status, push.stderr).toBe(0);
  const found = await docs(['search', 'herons', '--json'], env);
  expect(found.status, found.stderr).toBe(0);
  expect(JSON.stringify(found.json)).toContain('Herons');
  expect([...openFilesUnder(data)]).toEqual([]);
});

it('a command refused for its token, after the store opened (and was initialized), closes it', async () => {
  const data = tempDir();
  const r = await docs(['orgs', 'list', '--token', 'gb_api_authenticates_no_one'], { DOCS_DATA: data });
  expect(r.status, r.stderr).toBe(4);
  // Closed: its journal (the first commit's, the owner's bootstrap) checkpointed and removed, its handle closed.
  expect(existsSync(join(data, 'journal'))).toBe(false);
  expect([...openFilesUnder(data)]).toEqual([]);
});
