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

/** diff, put --fail-on-breaking and put --dry-run, on spec `api` whose latest version is `good`. */
async function gates(env: Record<string, string>) {
  const breaking = join(files, 'breaking.yaml');
  writeFileSync(breaking, petstore('Pets').replace("'200': {description: ok}", "'201': {description: created}"));
  const d = await docs(['openapi', 'diff', 'api', breaking], env);
  expect([d.status, d.stdout]).toEqual([
    0,
    '2 changes: 1 breaking, 0 warnings, 1 non-breaking.\nbreaking  GET /pets  response 200: success status no longer returned\nwarning   GET /pets  response 201: status added\n'
      .replace('1 non-breaking', '0 non-breaking')
      .replace('0 warnings', '1 warning'),
  ]);
  const gh = await docs(['openapi', 'diff', 'api@latest', breaking, '--format', 'github', '--fail-on-breaking'], env);
  expect(gh.status).toBe(1);
  expect(gh.stdout.split('\n')[0]).toBe(
    `::error file=${breaking},title=Breaking API change (response-success-status-removed)::GET /pets  response 200: success status no longer returned`,
  );
  const json = (await docs(['openapi', 'diff', 'api', breaking, '--json'], env)).json;
  expect(json.summary).toEqual({ breaking: 1, warning: 1, info: 0 });
  const versions = (await docs(['openapi', 'versions', 'api', '--json'], env)).json.count;
  const dry = await docs(['openapi', 'put', 'api', '--file', breaking, '--dry-run', '--fail-on-breaking', '--json'], env);
  expect([dry.status, dry.json.action, dry.json.newVersion]).toEqual([1, 'refused', false]);
  expect((await docs(['openapi', 'put', 'api', '--file', good, '--dry-run'], env)).stdout).toMatch(
    /^Dry run, nothing changed: OpenAPI spec api content unchanged: no new version would be made/,
  );
  const refused = await docs(['openapi', 'put', 'api', '--file', breaking, '--fail-on-breaking', '--wait'], env);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/Error: api: not published: 1 breaking change against the latest version \w+ \(--fail-on-breaking\); nothing was sent\n$/);
  expect((await docs(['openapi', 'versions', 'api', '--json'], env)).json.count).toBe(versions);
  // Without breaking changes the gate lets it through.
  const fine = join(files, 'fine.yaml');
  writeFileSync(
    fine,
    petstore('Pets', "  /owners:\n    get:\n      responses:\n        '200': {description: ok}\n")
      .replace('x-lang: no\n', '')
      .replace('\n  /owners', '\n  /owners'),
  );
  const ok = await docs(['openapi', 'put', 'api', '--file', fine, '--fail-on-breaking', '--wait'], env);
  expect(ok.status, ok.stderr).toBe(0);
  expect((await docs(['openapi', 'versions', 'api', '--json'], env)).json.count).toBe(versions + 1);
}

describe('docs openapi, in-process', () => {
  const data = tempDir();
  const env = { DOCS_DATA: data, DOCS_BOOTSTRAP_TOKEN: 'gb_api_openapi' };

  it('put --wait processes in this process: exit 0, the spec and the version created; again: no version', async () => {
    const first = await docs(['openapi', 'put', 'petstore', '--file', good, '--wait', '--json'], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.json.created).toBe(true);
    expect(first.json.spec).toMatchObject({ slug: 'petstore', processingState: 'complete' });
    expect(first.json.version.id).toBe(first.json.spec.lastVersion);
    expectContract('GET', `/v1/orgs/x/openapi/petstore`, 200, first.json.spec);
    expectContract('GET', `/v1/orgs/x/openapi/petstore/versions/latest`, 200, first.json.version);
    // No TTY: plain progress lines on stderr, ending with complete.
    expect(first.stderr).toMatch(/openapi petstore: complete\n$/);
    const again = await docs(['openapi', 'put', 'petstore', '--file', good, '--wait'], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(`Published petstore: content unchanged, no new version (latest: ${first.json.spec.lastVersion}).\n`);
  });

  it('diff, put --fail-on-breaking and --dry-run', async () => {
    expect((await docs(['openapi', 'put', 'api', '--file', good, '--wait'], env)).status).toBe(0);
    await gates(env);
    await docs(['openapi', 'delete', 'api', '--yes'], env);
  });

  it('put of an invalid file exits 2 with file:line:column errors and stores nothing (not even a new spec)', async () => {
    const r = await docs(['openapi', 'put', 'broken', '--file', bad, '--wait'], env);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `broken: not published: ${bad} is not a valid OpenAPI document (PARSE_ERROR), 2 errors; nothing was sent:\n` +
        `${bad}:7:9: must have required property 'description' (at /paths/~1pets/get/responses/200)\n` +
        `${bad}:9:7: must NOT have fewer than 1 properties (at /paths/~1pets/post/responses)\n`,
    );
    const json = await docs(['openapi', 'put', 'broken', '--file', bad, '--json'], env);
    expect(json.status).toBe(2);
    expect(json.json).toMatchObject({
      spec: null,
      created: false,
      errorCode: 'PARSE_ERROR',
      errors: [
        { line: 7, column: 9, pointer: '/paths/~1pets/get/responses/200' },
        { line: 9, column: 7 },
      ],
    });
    // Not OpenAPI at all: line and column too.
    const notOpenAPI = join(files, 'not-openapi.yaml');
    writeFileSync(notOpenAPI, 'name: a package.json?\n');
    const n = await docs(['openapi', 'put', 'broken', '--file', notOpenAPI], env);
    expect([n.status, n.stderr.split('\n')[1]]).toEqual([
      2,
      `${notOpenAPI}:1:1: not an OpenAPI 3.x or Swagger 2.0 document (needs "openapi": "3.x.y" or "swagger": "2.0") (at /)`,
    ]);
    expect((await docs(['openapi', 'list', '--json'], env)).json.items.map((x: any) => x.slug)).toEqual(['petstore']);
    // lint: the same checks, exit 1.
    const lint = await docs(['openapi', 'lint', good, bad], env);
    expect([lint.status, lint.stdout, lint.stderr]).toEqual([
      1,
      `${bad}:7:9: must have required property 'description' (at /paths/~1pets/get/responses/200)\n${bad}:9:7: must NOT have fewer than 1 properties (at /paths/~1pets/post/responses)\n`,
      '2 problems in 1 of 2 files\n',
    ]);
    expect((await docs(['openapi', 'lint', bad, '--format', 'github'], env)).stdout.split('\n')[0]).toBe(
      `::error file=${bad},line=7,col=9,title=OpenAPI required::must have required property 'description' (at /paths/~1pets/get/responses/200)`,
    );
    expect((await docs(['openapi', 'lint', good], env)).status).toBe(0);
  });

  it('refuses a missing file or source before any request, and never prompts', async () => {
    const missing = await docs(['openapi', 'put', 'other', '--file', join(files, 'nope.yaml')], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`Error: --file: cannot read ${join(files, 'nope.yaml')} (ENOENT)\n`);
    const none = await docs(['openapi', 'put', 'other'], env);
    expect(none.status).toBe(2);
    expect(none.stderr).toBe('Error: source: give exactly one of --file PATH or --url URL\n');
    expect((await docs(['openapi', 'list', '--json'], env)).json.items.map((x: any) => x.slug)).toEqual(['petstore']);
  });

  it('put without --wait leaves the spec pending and says so; --wait with a short --timeout exits 1', async () => {
    const r = await docs(['openapi', 'put', 'later', '--file', good], env);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('Created OpenAPI spec later: processing pending.\n');
    expect(r.stderr).toContain('is processed when `docs serve` runs on it');
    // A URL whose server accepts the connection and never answers: the wait times out first.
    const hang = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((res) => hang.once('listening', res));
    try {
      const url = `http://127.0.0.1:${(hang.address() as any).port}/spec.yaml`;
      const t = await docs(['openapi', 'put', 'hangs', '--url', url, '--wait', '--timeout', '1'], { ...env, DOCS_FETCH_ALLOW_PRIVATE: '1' });
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
    // A docs serve process: the two CI jobs below are processes too, the server does the work of both.
    const s = await spawnServe(['--data', tempDir(), '--quiet'], { DOCS_BOOTSTRAP_TOKEN: 'gb_api_openapi_remote' });
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: 'gb_api_openapi_remote' };
    try {
      // Two CI jobs publishing the same slug at once: both succeed, one spec.
      const [a, b] = await Promise.all(
        [1, 2].map(() => docsAsync(['openapi', 'put', 'api', '--file', good, '--visibility', 'public', '--wait', '--json'], env)),
      );
      expect([a!.status, b!.status], a!.stderr + b!.stderr).toEqual([0, 0]);
      const results = [JSON.parse(a!.stdout), JSON.parse(b!.stdout)];
      expect(results.map((r) => r.created).sort()).toEqual([false, true]);
      expect(results[0].spec.id).toBe(results[1].spec.id);
      expect(results[0].spec.visibility).toBe('public');
      expect((await docs(['openapi', 'list'], env)).stdout).toMatch(/^api\tcomplete\tpublic\t/m);
      const got = await docs(['openapi', 'get', 'api'], env);
      expect(got.stdout).toMatch(/^processingState\tcomplete$/m);
      expect((await docs(['openapi', 'visibility', 'api', '--visibility', 'private', '--json'], env)).json.visibility).toBe('private');
      const versions = await docs(['openapi', 'versions', 'api', '--json'], env);
      expect(versions.json.count).toBe(1);
      const content = await docs(['openapi', 'content', 'api', '--file', 'openapi.yaml'], env);
      expect(JSON.parse(content.stdout).info.title).toBe('Pets');
      const byId = await docs(['openapi', 'content', 'api', versions.json.items[0].id, '--json'], env);
      expectContract('GET', '/v1/orgs/x/openapi/api/versions/x/content', 200, byId.json);
      // Failure over HTTP: exit 2 with the errors, the good version kept.
      const failed = await docs(['openapi', 'put', 'api', '--file', bad, '--wait'], env);
      expect(failed.status).toBe(2);
      expect(failed.stderr).toContain(`${bad}:9:7: must NOT have fewer than 1 properties (at /paths/~1pets/post/responses)`);
      expect((await docs(['openapi', 'put', 'other', '--file', bad], env)).status).toBe(2);
      expect((await docs(['openapi', 'list', '--json'], env)).json.items.map((x: any) => x.slug)).toEqual(['api']);
      await gates(env);
      const refused = await docs(['openapi', 'delete', 'api'], env); // no TTY: refused without --yes
      expect([refused.status, refused.stderr]).toEqual([
        2,
        'Error: Delete the OpenAPI spec api and all its versions: not confirmed; pass --yes to confirm (no terminal to ask on)\n',
      ]);
      expect((await docs(['openapi', 'delete', 'api', '--yes'], env)).stdout).toMatch(/^Deleted OpenAPI spec api with all its versions/);
      const again = await docs(['openapi', 'delete', 'api', '--yes'], env);
      expect([again.status, again.stderr]).toEqual([3, 'Error: OpenAPI spec api not found: nothing deleted\n']);
      expect((await docs(['openapi', 'get', 'api'], env)).status).toBe(3);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
