import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, docs, spawnServe } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { tempDir } from '../helpers/server.js';
import { startFakeTranslator } from './fake-translator.js';

// The fake translator runs in this process: commands that reach it are spawned without
// blocking (docsAsync), so it can answer while they run.
function docsAsync(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ status: number; stdout: string; stderr: string; json: any }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, DOCS_API_URL: undefined, DOCS_TOKEN: undefined, DOCS_DATA: undefined, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ status: code ?? -1, stdout, stderr, json });
    });
  });
}

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
    const r = await docsAsync(['translations', 'run', t.json.id, '--wait', '--json'], { ...env, DOCS_TRANSLATOR_URL: fake.url });
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
    const s = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_translations_remote', DOCS_TRANSLATOR_URL: fake.url });
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_translations_remote' };
    try {
      const space = (await docs(['spaces', 'create', '--title', 'API docs', '--json'], env)).json;
      const t = (await docs(['translations', 'create', '--space', space.id, '--from', 'en', '--language', 'de', '--json'], env)).json;
      const up = await docs(['translations', 'update', t.id, '--instructions', style, '--json'], env);
      expect(up.status, up.stderr).toBe(0);
      expect(up.json.instructions.nodes).toHaveLength(1);
      const r = await docsAsync(['translations', 'run', t.id, '--wait'], env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Translated into space \w+, revision \w+ \(0 pages, 2 words\)\.\n$/);
      const got = (await docs(['translations', 'get', t.id, '--json'], env)).json;
      expect(got).toMatchObject({ status: 'completed', result: { space: expect.any(String) } });
      const dup = await docs(['translations', 'create', '--space', space.id, '--from', 'en', '--language', 'de'], env);
      expect(dup.status).toBe(5);
      expect(dup.stderr).toContain('already has a translation to de');
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
