import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, docsProcess } from '../helpers/cli.js';
import { tempDir } from '../helpers/server.js';

// `docs openapi diff` of two local files keeps its result in the CLI's cache
// (commands/_lib/openapi-diff-cache.ts), keyed by the files' bytes and the build, from the second
// diff of the same files (the first leaves a mark): a third reads it, a changed file is diffed
// again. The built CLI (the cache needs the bundle's build hash), each test with a cache folder of
// its own.

const spec = (props: Record<string, unknown>, ref = '#/components/schemas/Pet') =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: { '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } } } } } },
    components: { schemas: { Pet: { type: 'object', properties: props } } },
  });

const listed = (config: string, ext: string) => {
  try {
    return readdirSync(join(config, 'cache', 'openapi-diff')).filter((n) => n.endsWith(ext));
  } catch {
    return [];
  }
};
const entries = (config: string) => listed(config, '.json');
const marks = (config: string) => listed(config, '.seen');

describe('openapi diff: the cache of results', () => {
  it('reads a second diff of the same files from the cache; a changed file is diffed again (content addressed)', () => {
    const dir = tempDir('docs-diff-cache-');
    const env = { DOCS_CONFIG_DIR: join(dir, 'config') };
    const oldFile = join(dir, 'old.json');
    const newFile = join(dir, 'new.json');
    writeFileSync(oldFile, spec({ id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } }));
    writeFileSync(newFile, spec({ id: { type: 'integer' }, name: { type: 'string' } }));

    const first = docsProcess(['openapi', 'diff', oldFile, newFile, '--json'], env);
    expect(first.status).toBe(0);
    expect(first.json.summary).toEqual({ breaking: 1, warning: 0, info: 0 });
    // Kept on the second diff of the pair: the first leaves only its mark.
    expect(entries(env.DOCS_CONFIG_DIR)).toEqual([]);
    expect(marks(env.DOCS_CONFIG_DIR)).toHaveLength(1);
    expect(docsProcess(['openapi', 'diff', oldFile, newFile, '--json'], env).json).toEqual(first.json);
    const [entry] = entries(env.DOCS_CONFIG_DIR);
    expect(entries(env.DOCS_CONFIG_DIR)).toHaveLength(1);
    expect(marks(env.DOCS_CONFIG_DIR)).toEqual([]);

    // The same files: the entry is what answers (an entry changed by hand shows through).
    const cached = JSON.parse(readFileSync(join(env.DOCS_CONFIG_DIR, 'cache', 'openapi-diff', entry!), 'utf8'));
    expect(cached.result.changes).toEqual(first.json.changes);
    cached.result = {
      changes: [{ id: 'from-cache', level: 'info', operation: 'GET /pets', message: 'read from the cache' }],
      summary: { breaking: 0, warning: 0, info: 1 },
    };
    writeFileSync(join(env.DOCS_CONFIG_DIR, 'cache', 'openapi-diff', entry!), JSON.stringify(cached));
    const second = docsProcess(['openapi', 'diff', oldFile, newFile], env);
    expect(second.stdout).toBe('1 change: 0 breaking, 0 warnings, 1 non-breaking.\nok        GET /pets: read from the cache\n');

    // One byte of a file changed: a new key, the specs compared again.
    writeFileSync(newFile, spec({ id: { type: 'integer' }, name: { type: 'number' } }));
    const third = docsProcess(['openapi', 'diff', oldFile, newFile, '--json'], env);
    expect(third.json.summary).toEqual({ breaking: 2, warning: 0, info: 0 });
    expect(third.json.changes.map((c: { id: string }) => c.id)).toEqual(['response-property-removed', 'response-type-changed']);
    expect(entries(env.DOCS_CONFIG_DIR)).toHaveLength(1);
    docsProcess(['openapi', 'diff', oldFile, newFile, '--json'], env);
    expect(entries(env.DOCS_CONFIG_DIR)).toHaveLength(2);
  });

  it('gives what the diff without a cache gives, in every format, from the cache as when it filled it', async () => {
    const dir = tempDir('docs-diff-cache-');
    const env = { DOCS_CONFIG_DIR: join(dir, 'config') };
    const oldFile = join(dir, 'old.json');
    const newFile = join(dir, 'new.json');
    writeFileSync(oldFile, spec({ id: { type: 'integer' }, kind: { type: 'string', enum: ['cat', 'dog'] } }));
    writeFileSync(newFile, spec({ id: { type: 'string' }, kind: { type: 'string', enum: ['cat', 'dog', 'émeu'] }, tag: { type: 'string' } }));
    for (const format of [['--json'], [], ['--format', 'github', '--fail-on-breaking']]) {
      const args = ['openapi', 'diff', oldFile, newFile, ...format];
      // In this process, from the source: no build, no cache.
      const expected = await docs(args, env);
      const marking = docsProcess(args, env);
      const filling = docsProcess(args, env);
      const reading = docsProcess(args, env);
      for (const got of [marking, filling, reading]) expect([got.status, got.stdout, got.stderr]).toEqual([expected.status, expected.stdout, expected.stderr]);
    }
    expect(entries(env.DOCS_CONFIG_DIR)).toHaveLength(1);
  });

  it('keeps nothing for a spec that references another file (the key would not hold it)', () => {
    const dir = tempDir('docs-diff-cache-');
    const env = { DOCS_CONFIG_DIR: join(dir, 'config') };
    writeFileSync(join(dir, 'pet.json'), JSON.stringify({ type: 'object', properties: { id: { type: 'integer' } } }));
    writeFileSync(join(dir, 'old.json'), spec({ id: { type: 'integer' } }));
    writeFileSync(join(dir, 'new.json'), spec({}, 'pet.json'));
    const args = ['openapi', 'diff', join(dir, 'old.json'), join(dir, 'new.json'), '--json'];
    const first = docsProcess(args, env);
    expect([first.status, first.json.summary]).toEqual([0, { breaking: 0, warning: 0, info: 0 }]);
    docsProcess(args, env);
    expect(entries(env.DOCS_CONFIG_DIR)).toEqual([]);
    expect(marks(env.DOCS_CONFIG_DIR)).toEqual([]);
    // The referenced file changed (not the two named): seen, as it is read again.
    writeFileSync(join(dir, 'pet.json'), JSON.stringify({ type: 'object', properties: {} }));
    const second = docsProcess(args, env);
    expect(second.json.changes.map((c: { id: string }) => c.id)).toEqual(['response-property-removed']);
  });
});
