import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { openFilesUnder } from '../helpers/open-files.js';
import { tempDir } from '../helpers/server.js';

// An in-process command (src/transport/select.ts, openLocal) closes what it opened on the data
// directory when it ends: the store, and the index files its search opened on the search thread,
// which outlives the command in a process that runs several (the tests' in-process CLI).

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
