import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs, docsAsync, spawnServe } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { tempDir } from '../helpers/server.js';
import { invalidSpec, petstore } from './fixtures.js';

const files = tempDir('docs-openapi-files-');
const good = join(files, 'petstore.yaml');
const bad = join(files, 'broken.yaml');
writeFileSync(good, petstore());
writeFileSync(bad, invalidSpec);

describe('docs openapi, in-process', () => {
  const data = tempDir();
  const env = { DOCS_DATA: data, DOCS_BOOTSTRAP_TOKEN: 'gb_api_openapi' };

  it('put --wait processes in this process: exit 0, the spec and the version created; again: no version', () => {
    const first = docs(['openapi', 'put', 'petstore', '--file', good, '--wait', '--json'], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.json.created).toBe(true);
    expect(first.json.spec).toMatchObject({ slug: 'petstore', processingState: 'complete' });
    expect(first.json.version.id).toBe(first.json.spec.lastVersion);
    expectContract('GET', `/v1/orgs/x/openapi/petstore`, 200, first.json.spec);
    expectContract('GET', `/v1/orgs/x/openapi/petstore/versions/latest`, 200, first.json.version);
    // No TTY: plain progress lines on stderr, ending with complete.
    expect(first.stderr).toMatch(/openapi petstore: complete\n$/);
    const again = docs(['openapi', 'put', 'petstore', '--file', good, '--wait'], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(`Published petstore: content unchanged, no new version (latest: ${first.json.spec.lastVersion}).\n`);
  });

  it('put --wait on an invalid file exits 2 and prints every error as file: location: message', () => {
    const r = docs(['openapi', 'put', 'petstore', '--file', bad, '--wait'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`Processing of petstore failed (PARSE_ERROR), 2 errors:\n${bad}: /paths/~1pets/get/responses/200: must have required property 'description'\n${bad}: /paths/~1pets/post/responses: must NOT have fewer than 1 properties\n`);
    const json = docs(['openapi', 'put', 'petstore', '--file', bad, '--wait', '--json'], env);
    expect(json.status).toBe(2);
    expect(json.json).toMatchObject({ spec: { lastProcessErrorCode: 'PARSE_ERROR' }, version: null });
  });

  it('refuses a missing file or source before any request, and never prompts', () => {
    const missing = docs(['openapi', 'put', 'other', '--file', join(files, 'nope.yaml')], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`Error: --file: cannot read ${join(files, 'nope.yaml')} (ENOENT)\n`);
    const none = docs(['openapi', 'put', 'other'], env);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe('Error: source: give exactly one of --file PATH or --url URL\n');
    expect(docs(['openapi', 'list', '--json'], env).json.items.map((x: any) => x.slug)).toEqual(['petstore']);
  });

  it('put without --wait leaves the spec pending and says so; --wait with a short --timeout exits 1', async () => {
    const r = docs(['openapi', 'put', 'later', '--file', good], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Created OpenAPI spec later: processing pending.\n');
    expect(r.stderr).toContain('is processed when `docs serve` runs on it');
    // A URL whose server accepts the connection and never answers: the wait times out first.
    const hang = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((res) => hang.once('listening', res));
    try {
      const url = `http://127.0.0.1:${(hang.address() as any).port}/spec.yaml`;
      const t = await docsAsync(['openapi', 'put', 'hangs', '--url', url, '--wait', '--timeout', '1'], { ...env, DOCS_FETCH_ALLOW_PRIVATE: '1' });
      expect(t.status).toBe(1);
      // Pending or in progress, depending on how fast the worker picked it up on a busy machine.
      expect(t.stderr).toMatch(/Error: openapi hangs: still (pending|progress) after 1 s; not finished/);
    } finally {
      hang.close();
    }
  });
});

describe('docs openapi against a server (--api-url)', () => {
  it('publishes, lists, shows, changes visibility, lists versions, prints content and deletes', { timeout: 60_000 }, async () => {
    const s = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_openapi_remote' });
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_openapi_remote' };
    try {
      // Two CI jobs publishing the same slug at once: both succeed, one spec.
      const [a, b] = await Promise.all([1, 2].map(() => docsAsync(['openapi', 'put', 'api', '--file', good, '--visibility', 'public', '--wait', '--json'], env)));
      expect([a!.status, b!.status], a!.stderr + b!.stderr).toEqual([0, 0]);
      const results = [JSON.parse(a!.stdout), JSON.parse(b!.stdout)];
      expect(results.map((r) => r.created).sort()).toEqual([false, true]);
      expect(results[0].spec.id).toBe(results[1].spec.id);
      expect(results[0].spec.visibility).toBe('public');
      expect(docs(['openapi', 'list'], env).stdout).toMatch(/^api\tcomplete\tpublic\t/m);
      const got = docs(['openapi', 'get', 'api'], env);
      expect(got.stdout).toMatch(/^processingState\tcomplete$/m);
      expect(docs(['openapi', 'visibility', 'api', '--visibility', 'private', '--json'], env).json.visibility).toBe('private');
      const versions = docs(['openapi', 'versions', 'api', '--json'], env);
      expect(versions.json.count).toBe(1);
      const content = docs(['openapi', 'content', 'api', '--file', 'openapi.yaml'], env);
      expect(JSON.parse(content.stdout).info.title).toBe('Pets');
      const byId = docs(['openapi', 'content', 'api', versions.json.items[0].id, '--json'], env);
      expectContract('GET', '/v1/orgs/x/openapi/api/versions/x/content', 200, byId.json);
      // Failure over HTTP: exit 2 with the errors, the good version kept.
      const failed = docs(['openapi', 'put', 'api', '--file', bad, '--wait'], env);
      expect(failed.status).toBe(2);
      expect(failed.stderr).toContain(`${bad}: /paths/~1pets/post/responses: must NOT have fewer than 1 properties`);
      const refused = docs(['openapi', 'delete', 'api'], env); // no TTY: refused without --yes
      expect([refused.status, refused.stderr]).toEqual([2, 'Error: Delete the OpenAPI spec api and all its versions: not confirmed; pass --yes to confirm (no terminal to ask on)\n']);
      expect(docs(['openapi', 'delete', 'api', '--yes'], env).stdout).toMatch(/^Deleted OpenAPI spec api with all its versions/);
      const again = docs(['openapi', 'delete', 'api', '--yes'], env);
      expect([again.status, again.stderr]).toEqual([3, 'Error: OpenAPI spec api not found: nothing deleted\n']);
      expect(docs(['openapi', 'get', 'api'], env).status).toBe(3);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});

