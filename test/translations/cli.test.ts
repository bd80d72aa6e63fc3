import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { startServer, tempDir } from '../helpers/server.js';
import { startFakeTranslator } from './fake-translator.js';

let fake: Awaited<ReturnType<typeof startFakeTranslator>>;
const style = join(tempDir('docs-translations-files-'), 'style.md');
writeFileSync(style, 'Use **formal** French.\n');

beforeAll(async () => {
  fake = await startFakeTranslator();
});
afterAll(async () => {
  await fake.close();
});

describe('docs translations, in-process', () => {
  const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_translations' };

  it('create with markdown instructions, run --wait through the translator, list, delete', async () => {
    const space = (await docs(['spaces', 'create', '--title', 'User guide', '--json'], env)).json;
    const t = await docs(['translations', 'create', '--space', space.id, '--from', 'en', '--language', 'fr', '--instructions', style, '--json'], env);
    expect(t.status, t.stderr).toBe(0);
    expectContract('POST', '/v1/orgs/x/translations', 201, t.json);
    expect(t.json.instructions.nodes[0].type).toBe('paragraph');
    // No translator configured: the run fails and says why (exit 1), nothing is copied.
    const none = await docs(['translations', 'run', t.json.id, '--wait'], env);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain(`Translation ${t.json.id} failed (NO_TRANSLATOR): no translator is configured: set DOCS_TRANSLATOR_URL`);
    const r = await docs(['translations', 'run', t.json.id, '--wait', '--json'], { ...env, DOCS_TRANSLATOR_URL: fake.url });
    expect(r.status, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ status: 'completed', stats: { runs: 1, latestWords: 2 } });
    expect((await docs(['spaces', 'get', r.json.result.space, '--json'], env)).json).toMatchObject({ title: '[fr] User guide', language: 'fr' });
    expect((await docs(['translations', 'list'], env)).stdout).toContain('completed');
    const del = await docs(['translations', 'delete', t.json.id, '--yes'], env);
    expect(del.stdout).toBe(`Deleted translation ${t.json.id} (its translated space stays; not restorable).\n`);
  });
});

describe('docs translations, over HTTP', () => {
  it('create, update, run --wait and get through the server', async () => {
    // The server (in this process) reads DOCS_TRANSLATOR_URL when it runs a translation; the
    // environment is put back after the file (test/helpers/leaks.ts).
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    const s = await startServer({ dataDir: tempDir(), token: 'gb_api_translations_remote' });
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_translations_remote' };
    try {
      const space = (await docs(['spaces', 'create', '--title', 'API docs', '--json'], env)).json;
      const t = (await docs(['translations', 'create', '--space', space.id, '--from', 'en', '--language', 'de', '--json'], env)).json;
      const up = await docs(['translations', 'update', t.id, '--instructions', style, '--json'], env);
      expect(up.status, up.stderr).toBe(0);
      expect(up.json.instructions.nodes).toHaveLength(1);
      const r = await docs(['translations', 'run', t.id, '--wait'], env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Translated into space \w+, revision \w+ \(0 pages, 2 words\)\.\n$/);
      const got = (await docs(['translations', 'get', t.id, '--json'], env)).json;
      expect(got).toMatchObject({ status: 'completed', result: { space: expect.any(String) } });
      const dup = await docs(['translations', 'create', '--space', space.id, '--from', 'en', '--language', 'de'], env);
      expect(dup.status).toBe(5);
      expect(dup.stderr).toContain('already has a translation to de');
    } finally {
      delete process.env.DOCS_TRANSLATOR_URL;
      await s.stop();
    }
  });
});
