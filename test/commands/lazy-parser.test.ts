import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parserLoads } from '../../commands/_lib/markdown-parser.js';
import { docs } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// Issue 30's figures (docs/manual/performance.md#ci-journeys): `docs content push` of an unchanged
// folder and `docs content check` of pages already in its cache compare without parsing, so they
// do not load the markdown parser (~80 ES modules) at all; a push that changes a page does.

it('a no-op push and a cached check load no markdown parser; a changed page loads it', async () => {
  const env = { DOCS_DATA: tempDir('docs-lazy-parser-data-'), DOCS_CONFIG_DIR: tempDir('docs-lazy-parser-config-') };
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const dir = tempDir('docs-lazy-parser-');
  mkdirSync(join(dir, 'guide'));
  writeFileSync(join(dir, 'README.md'), '# Home\n\nSee [setup](guide/setup.md).\n');
  writeFileSync(join(dir, 'guide', 'setup.md'), '# Setup\n\nBack [home](../README.md).\n');
  const space = (await run('spaces', 'create', '--title', 'Lazy', '--json')).json.id as string;
  let before = parserLoads();
  expect((await run('content', 'push', dir, '--space', space, '--merge', '--json')).json).toMatchObject({ added: 3, merged: true });
  expect(parserLoads()).toBeGreaterThan(before);
  expect((await run('content', 'check', dir, '--json')).json.problems).toEqual([]);

  before = parserLoads();
  expect((await run('content', 'push', dir, '--space', space, '--merge', '--json')).json).toMatchObject({ changeRequest: null, updated: 0 });
  expect(parserLoads()).toBe(before);
  expect((await run('content', 'check', dir, '--json')).json.problems).toEqual([]);
  expect(parserLoads()).toBe(before);

  appendFileSync(join(dir, 'guide', 'setup.md'), '\nOne more [link](../README.md).\n');
  expect((await run('content', 'push', dir, '--space', space, '--merge', '--json')).json).toMatchObject({ updated: 1, merged: true });
  expect(parserLoads()).toBeGreaterThan(before);
});
