import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processingIdle } from '../../src/openapi/processor.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addUser, completed, invalidSpec, petstore, startFixtures } from './fixtures.js';

let s: TestServer;
let org: string;
let fx: Awaited<ReturnType<typeof startFixtures>>;
const base = () => `/v1/orgs/${org}/openapi`;
const ENV = ['DOCS_FETCH_ALLOW_PRIVATE', 'DOCS_FETCH_TIMEOUT_MS', 'DOCS_FETCH_MAX_BYTES'];

beforeAll(async () => {
  s = await startServer({ onDisk: true });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  fx = await startFixtures();
});
afterAll(async () => {
  await s.stop();
  await fx.close();
});
afterEach(async () => {
  await processingIdle(s.ctx);
  for (const k of ENV) delete process.env[k];
});

describe('OpenAPI specs: create, get, list', () => {
  it('creates a spec from text (201, pending), processes it, and serves its first version', async () => {
    const r = await s.api('POST', base(), { body: { slug: 'pets', source: { text: petstore() } } });
    expect(r.status).toBe(201);
    expect(r.headers.get('location')).toBeNull(); // the contract gives this 201 no Location
    expect(r.body).toMatchObject({
      object: 'openapi-spec',
      slug: 'pets',
      processingState: 'pending',
      visibility: 'private',
      permissions: { view: true, edit: true },
    });
    expect(r.body.urls.location).toBe(`${s.url}${base()}/pets`);
    expect(r.body.sourceURL).toBeUndefined();
    const done = await completed(s, `${base()}/pets`);
    expect(done.lastVersion).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(done.lastProcessErrorCode).toBeUndefined();
    expect(done.lastProcessedAt).toBeDefined();
    const versions = await s.api('GET', `${base()}/pets/versions`);
    expect(versions.body.count).toBe(1);
    expect(versions.body.items[0].id).toBe(done.lastVersion);
    const latest = await s.api('GET', `${base()}/pets/versions/latest`);
    expect(latest.body).toEqual(versions.body.items[0]);
    expect(latest.body.urls.location).toBe(`${s.url}${base()}/pets/versions/${done.lastVersion}`);
    expect((await s.api('GET', `${base()}/pets/versions/${done.lastVersion}`)).body).toEqual(latest.body);
    const content = await s.api('GET', `${base()}/pets/versions/latest/content`);
    // The document as parsed (YAML 1.2: `no` stays a string), by file name.
    expect(Object.keys(content.body.filesystem)).toEqual(['openapi.yaml']);
    expect(content.body.filesystem['openapi.yaml']).toMatchObject({ openapi: '3.0.3', info: { title: 'Pets' }, 'x-lang': 'no' });
    expect(content.body.url).toBe(latest.body.url);
    expect((await s.api('GET', `${base()}/pets/versions/${done.lastVersion}/content`)).body).toEqual(content.body);
    // The parsed documents are a file beside the store, not in a shard.
    expect(existsSync(join(s.dataDir!, 'openapi', done.id, `${done.lastVersion}.json`))).toBe(true);
  });

  it('refuses bad input with 400 naming the field, and a taken slug with 409, storing nothing', async () => {
    const before = (await s.api('GET', `${base()}?limit=1000`)).body.count;
    const bad = async (body: unknown, message: string) => {
      const r = await s.api('POST', base(), { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toBe(message);
    };
    await bad({ slug: 'Not_A_Slug', source: { text: 'x' } }, 'body.slug: must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"');
    await bad({ slug: 'x'.repeat(101), source: { text: 'x' } }, 'body.slug: must NOT have more than 100 characters');
    await bad({ source: { text: 'x' } }, 'body.slug: is required');
    await bad({ slug: 'ok', source: { url: 'ftp://example.com/spec.yaml' } }, 'source.url: must be an http or https URL');
    await bad({ slug: 'ok', source: { url: 'file:///etc/passwd' } }, 'source.url: must be an http or https URL');
    await bad({ slug: 'ok', source: { text: '   ' } }, 'source.text: must not be empty');
    expect((await s.api('POST', base(), { body: { slug: 'ok', source: {} } })).status).toBe(400);
    const dup = await s.api('POST', base(), { body: { slug: 'pets', source: { text: petstore() } } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toContain('slug: an OpenAPI spec pets already exists');
    expect((await s.api('GET', `${base()}?limit=1000`)).body.count).toBe(before);
  });

  it('answers 404 for an unknown slug and version', async () => {
    expect((await s.api('GET', `${base()}/nope`)).status).toBe(404);
    expect((await s.api('PATCH', `${base()}/nope`, { body: { visibility: 'public' } })).status).toBe(404);
    expect((await s.api('GET', `${base()}/nope/versions`)).status).toBe(404);
    expect((await s.api('GET', `${base()}/pets/versions/AAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await s.api('GET', `${base()}/pets/versions/AAAAAAAAAAAAAAAAAAAA/content`)).status).toBe(404);
  });

  it('lists specs by slug, paged', async () => {
    for (const slug of ['zeta', 'alpha']) await s.api('PUT', `${base()}/${slug}`, { body: { source: { text: petstore(slug) } } });
    const all = (await s.api('GET', base())).body;
    const slugs = all.items.map((x: any) => x.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(slugs).toEqual(expect.arrayContaining(['alpha', 'pets', 'zeta']));
    const page = await s.api('GET', `${base()}?limit=1`);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.count).toBe(all.count);
    expect((await s.api('GET', `${base()}?limit=1&page=${page.body.next.page}`)).body.items[0].slug).toBe(slugs[1]);
  });
});

describe('OpenAPI specs: put, versions, failures', () => {
  it('upserts: 201 when created, 200 when it existed; identical content makes no new version', async () => {
    const created = await s.api('PUT', `${base()}/ci`, { body: { source: { text: petstore('CI') } } });
    expect(created.status).toBe(201);
    const first = await completed(s, `${base()}/ci`);
    const again = await s.api('PUT', `${base()}/ci`, { body: { source: { text: petstore('CI') } } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    expect(again.body.processingState).toBe('pending'); // processing restarts
    const second = await completed(s, `${base()}/ci`);
    expect(second.lastVersion).toBe(first.lastVersion);
    expect(second.lastProcessedAt >= first.lastProcessedAt).toBe(true);
    expect((await s.api('GET', `${base()}/ci/versions`)).body.count).toBe(1);
    // Changed content: a new version, listed first.
    await s.api('PUT', `${base()}/ci`, { body: { source: { text: petstore('CI v2') } } });
    const third = await completed(s, `${base()}/ci`);
    expect(third.lastVersion).not.toBe(first.lastVersion);
    const versions = (await s.api('GET', `${base()}/ci/versions`)).body;
    expect(versions.items.map((v: any) => v.id)).toEqual([third.lastVersion, first.lastVersion]);
    expect((await s.api('GET', `${base()}/ci/versions/${first.lastVersion}/content`)).body.filesystem['openapi.yaml'].info.title).toBe('CI');
    expect((await s.api('GET', `${base()}/ci/versions/latest/content`)).body.filesystem['openapi.yaml'].info.title).toBe('CI v2');
  });

  it('refuses a malformed slug in the path with 400', async () => {
    const r = await s.api('PUT', `${base()}/Bad_Slug`, { body: { source: { text: petstore() } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^specSlug: must be 1 to 100 lowercase letters and digits/);
    expect((await s.api('PUT', `${base()}/x`, { body: { source: { url: 'gopher://x' } } })).status).toBe(400);
    expect((await s.api('GET', `${base()}/x`)).status).toBe(404);
  });

  it('makes one spec of two concurrent PUTs of the same slug', async () => {
    const [a, b] = await Promise.all([1, 2].map((i) => s.api('PUT', `${base()}/race`, { body: { source: { text: petstore(`Race ${i}`) } } })));
    expect([a!.status, b!.status].sort()).toEqual([200, 201]);
    expect(a!.body.id).toBe(b!.body.id);
    const list = (await s.api('GET', `${base()}?limit=1000`)).body.items.filter((x: any) => x.slug === 'race');
    expect(list).toHaveLength(1);
    await completed(s, `${base()}/race`);
  });

  it('records a validation failure with every error and its location, keeping the last good version', async () => {
    const good = await completed(s, `${base()}/pets`);
    const put = await s.api('PUT', `${base()}/pets`, { body: { source: { text: invalidSpec } } });
    expect(put.status).toBe(200);
    const failed = await completed(s, `${base()}/pets`);
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(failed.lastProcessedErrors).toEqual([
      { message: "openapi.yaml: /paths/~1pets/get/responses/200: must have required property 'description'", code: 'required' },
      { message: 'openapi.yaml: /paths/~1pets/post/responses: must NOT have fewer than 1 properties', code: 'minproperties' },
    ]);
    expect(failed.lastVersion).toBe(good.lastVersion);
    expect(failed.lastProcessedAt > good.lastProcessedAt).toBe(true);
    // YAML syntax errors carry line and column.
    await s.api('PUT', `${base()}/pets`, { body: { source: { text: 'openapi: 3.0.3\ninfo: {title: x\n' } } });
    const syntax = await completed(s, `${base()}/pets`);
    expect(syntax.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(syntax.lastProcessedErrors[0].message).toMatch(/^openapi\.yaml: line \d+, column \d+: /);
    // Not an OpenAPI document at all.
    await s.api('PUT', `${base()}/pets`, { body: { source: { text: '{"hello": "world"}' } } });
    expect((await completed(s, `${base()}/pets`)).lastProcessedErrors[0]).toMatchObject({ code: 'NOT_OPENAPI' });
    // Relative refs of a text source cannot be resolved: an error, not ignored.
    await s.api('PUT', `${base()}/pets`, { body: { source: { text: petstore('Refs', `components:\n  schemas:\n    Pet: {$ref: 'pet.yaml'}\n`) } } });
    const refs = await completed(s, `${base()}/pets`);
    expect(refs.lastProcessedErrors[0]).toMatchObject({ code: 'UNRESOLVED_REF' });
    expect(refs.lastProcessedErrors[0].message).toContain('/components/schemas/Pet');
    // A good source again clears the errors; content equal to the kept version makes none.
    await s.api('PUT', `${base()}/pets`, { body: { source: { text: petstore() } } });
    const fixed = await completed(s, `${base()}/pets`);
    expect(fixed.lastProcessErrorCode).toBeUndefined();
    expect(fixed.lastProcessedErrors).toBeUndefined();
    expect(fixed.lastVersion).toBe(good.lastVersion);
  });

  it('validates Swagger 2.0 and OpenAPI 3.1 too', async () => {
    const swagger = JSON.stringify({
      swagger: '2.0',
      info: { title: 'S', version: '1' },
      paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } },
    });
    await s.api('PUT', `${base()}/swagger`, { body: { source: { text: swagger } } });
    const sw = await completed(s, `${base()}/swagger`);
    expect(sw.lastProcessErrorCode).toBeUndefined();
    expect(Object.keys((await s.api('GET', `${base()}/swagger/versions/latest/content`)).body.filesystem)).toEqual(['openapi.json']);
    const missingParam = JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'S', version: '1' },
      paths: { '/a/{id}': { get: { responses: { 200: { description: 'ok' } } } } },
    });
    await s.api('PUT', `${base()}/swagger`, { body: { source: { text: missingParam } } });
    const bad = await completed(s, `${base()}/swagger`);
    expect(bad.lastProcessedErrors[0].message).toMatch(/^openapi\.json: \/paths\/a\/\{id\}\/get: .*missing path parameter/);
  });

  it('restarts processing on a put during processing: the stale result is dropped', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    await s.api('PUT', `${base()}/restart`, { body: { source: { url: `${fx.base}/slow.yaml` } } });
    await expect.poll(async () => (await s.api('GET', `${base()}/restart`)).body.processingState).toBe('progress');
    await s.api('PUT', `${base()}/restart`, { body: { source: { text: petstore('Second') } } });
    const done = await completed(s, `${base()}/restart`);
    expect(done.sourceURL).toBeUndefined();
    await processingIdle(s.ctx); // the slow fetch finishes too, and its result must not land
    expect((await s.api('GET', `${base()}/restart/versions`)).body.count).toBe(1);
    expect((await s.api('GET', `${base()}/restart/versions/latest/content`)).body.filesystem['openapi.yaml'].info.title).toBe('Second');
    expect((await s.api('GET', `${base()}/restart`)).body).toEqual(done);
  });
});

describe('OpenAPI specs: fetching URLs (SSRF guard)', () => {
  it('refuses loopback and private addresses by default', async () => {
    for (const url of [
      `${fx.base}/petstore.yaml`,
      fx.base.replace('127.0.0.1', 'localhost') + '/petstore.yaml',
      'http://[::1]:9/x.yaml',
      'http://10.0.0.1/x.yaml',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      await s.api('PUT', `${base()}/guarded`, { body: { source: { url } } });
      const r = await completed(s, `${base()}/guarded`);
      expect(r.lastProcessErrorCode, url).toBe('FETCH_ERROR');
      expect(r.lastProcessedErrors[0].message, url).toMatch(/is a (loopback|private|linkLocal) address: refused/);
    }
    expect(fx.hits.get('/petstore.yaml') ?? 0).toBe(0);
  });

  it('fetches with DOCS_FETCH_ALLOW_PRIVATE=1, following redirects and external refs', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    await s.api('PUT', `${base()}/fetched`, { body: { source: { url: `${fx.base}/redirect?n=2` } } });
    const r = await completed(s, `${base()}/fetched`);
    expect(r.lastProcessErrorCode).toBeUndefined();
    expect(r.sourceURL).toBe(`${fx.base}/redirect?n=2`);
    const latest = (await s.api('GET', `${base()}/fetched/versions/latest`)).body;
    expect(latest.url).toBe(`${fx.base}/petstore.yaml`); // where the document really was
    expect(Object.keys((await s.api('GET', `${base()}/fetched/versions/latest/content`)).body.filesystem)).toEqual(['petstore.yaml']);
    // A spec split over files: every file, by its path relative to the root.
    await s.api('PUT', `${base()}/split`, { body: { source: { url: `${fx.base}/split/root.yaml` } } });
    expect((await completed(s, `${base()}/split`)).lastProcessErrorCode).toBeUndefined();
    const fs = (await s.api('GET', `${base()}/split/versions/latest/content`)).body.filesystem;
    expect(Object.keys(fs).sort()).toEqual(['root.yaml', 'schemas/responses.yaml']);
    expect(fs['schemas/responses.yaml']).toEqual({ Ok: { description: 'fine' } });
    expect(fs['root.yaml'].paths['/pets'].get.responses['200']).toEqual({ $ref: 'schemas/responses.yaml#/Ok' }); // stored as written
    // A ref that cannot be fetched is an error.
    await s.api('PUT', `${base()}/split`, { body: { source: { url: `${fx.base}/broken-ref.yaml` } } });
    const broken = await completed(s, `${base()}/split`);
    expect(broken.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(broken.lastProcessedErrors[0]).toMatchObject({ code: 'UNRESOLVED_REF' });
    expect(broken.lastProcessedErrors[0].message).toContain('missing.yaml: HTTP 404');
  });

  it('gives up after 5 redirects, on a non-http redirect, on HTTP errors, on a timeout and over the size cap', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const outcome = async (url: string) => {
      await s.api('PUT', `${base()}/limits`, { body: { source: { url } } });
      const r = await completed(s, `${base()}/limits`);
      return { code: r.lastProcessErrorCode, message: r.lastProcessedErrors?.[0]?.message };
    };
    expect(await outcome(`${fx.base}/redirect?n=5`)).toEqual({ code: undefined, message: undefined });
    expect(await outcome(`${fx.base}/redirect?n=6`)).toEqual({ code: 'FETCH_ERROR', message: `${fx.base}/redirect?n=6: more than 5 redirects` });
    expect(await outcome(`${fx.base}/redirect-file`)).toEqual({ code: 'FETCH_ERROR', message: 'file:///etc/passwd: only http and https URLs are fetched' });
    expect(await outcome(`${fx.base}/nothing-here.yaml`)).toEqual({ code: 'FETCH_ERROR', message: `${fx.base}/nothing-here.yaml: HTTP 404` });
    process.env.DOCS_FETCH_MAX_BYTES = '1024';
    expect(await outcome(`${fx.base}/big.yaml`)).toEqual({ code: 'FETCH_ERROR', message: `${fx.base}/big.yaml: larger than the limit of 1024 bytes` });
    delete process.env.DOCS_FETCH_MAX_BYTES;
    process.env.DOCS_FETCH_TIMEOUT_MS = '200';
    const started = Date.now();
    expect(await outcome(`${fx.base}/slow.yaml`)).toEqual({ code: 'FETCH_TIMEOUT', message: `${fx.base}/slow.yaml: no complete answer within 200 ms` });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('OpenAPI specs: visibility, permissions, delete', () => {
  it('patches visibility; the same value changes nothing', async () => {
    const r = await s.api('PATCH', `${base()}/pets`, { body: { visibility: 'public' } });
    expect(r.status).toBe(200);
    expect(r.body.visibility).toBe('public');
    const again = await s.api('PATCH', `${base()}/pets`, { body: { visibility: 'public' } });
    expect(again.body.updatedAt).toBe(r.body.updatedAt);
    const bad = await s.api('PATCH', `${base()}/pets`, { body: { visibility: 'secret' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('body.visibility: must be one of "private", "public"');
    await s.api('PATCH', `${base()}/pets`, { body: { visibility: 'private' } });
  });

  it('lets readers see, editors (create role) change, guests see public specs only, others nothing', async () => {
    const reader = await addUser(s.ctx, 'reader', org, 'read');
    const guest = await addUser(s.ctx, 'guest', org, null);
    const stranger = await addUser(s.ctx, 'stranger', org, undefined);
    const editor = await addUser(s.ctx, 'editor', org, 'create');
    const seen = await s.api('GET', `${base()}/pets`, { token: reader });
    expect(seen.body.permissions).toEqual({ view: true, edit: false });
    const denied = await s.api('PUT', `${base()}/pets`, { token: reader, body: { source: { text: petstore() } } });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('publishing an OpenAPI spec needs the create role in this organization (you have read)');
    expect((await s.api('PATCH', `${base()}/pets`, { token: reader, body: { visibility: 'public' } })).status).toBe(403);
    expect((await s.api('DELETE', `${base()}/pets`, { token: reader })).status).toBe(403);
    expect((await s.api('POST', base(), { token: reader, body: { slug: 'mine', source: { text: petstore() } } })).status).toBe(403);
    // An editor may publish.
    const put = await s.api('PUT', `${base()}/by-editor`, { token: editor, body: { source: { text: petstore() } } });
    expect(put.status).toBe(201);
    expect(put.body.permissions).toEqual({ view: true, edit: true });
    // Guests: public specs only; private ones do not exist for them.
    expect((await s.api('GET', `${base()}/pets`, { token: guest })).status).toBe(404);
    expect((await s.api('GET', `${base()}/pets/versions/latest/content`, { token: guest })).status).toBe(404);
    await s.api('PATCH', `${base()}/by-editor`, { body: { visibility: 'public' } });
    const guestList = (await s.api('GET', base(), { token: guest })).body;
    expect(guestList.items.map((x: any) => x.slug)).toEqual(['by-editor']);
    expect(guestList.count).toBe(1);
    // Non-members: the organization does not exist for them.
    expect((await s.api('GET', base(), { token: stranger })).status).toBe(404);
    expect((await s.api('GET', `${base()}/by-editor`, { token: stranger })).status).toBe(404);
    expect((await s.api('PUT', `${base()}/x`, { token: stranger, body: { source: { text: petstore() } } })).status).toBe(404);
  });

  it('deletes with 205, then 204; versions and files go with it', async () => {
    const spec = await completed(s, `${base()}/ci`);
    expect(existsSync(join(s.dataDir!, 'openapi', spec.id))).toBe(true);
    expect((await s.api('DELETE', `${base()}/ci`)).status).toBe(205);
    expect((await s.api('DELETE', `${base()}/ci`)).status).toBe(204);
    expect((await s.api('GET', `${base()}/ci`)).status).toBe(404);
    expect((await s.api('GET', `${base()}/ci/versions/${spec.lastVersion}`)).status).toBe(404);
    expect(existsSync(join(s.dataDir!, 'openapi', spec.id))).toBe(false);
    expect(readdirSync(join(s.dataDir!, 'store'))).not.toContain(`openapi__${spec.id}.json`);
    // The slug is free again: a new spec, new id, no versions.
    const again = await s.api('POST', base(), { body: { slug: 'ci', source: { text: petstore() } } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(spec.id);
    expect(again.body.lastVersion).toBeUndefined();
  });
});

describe('OpenAPI processing across restarts', () => {
  it('takes up specs left pending when the server starts on the data directory', async () => {
    const { openContext } = await import('../../src/open.js');
    const { bootstrap } = await import('../../src/auth/bootstrap.js');
    const { tempDir } = await import('../helpers/server.js');
    const { LocalTransport } = await import('../../src/transport/local.js');
    const dir = tempDir();
    const ctx = await openContext(dir);
    const boot = await bootstrap(ctx, 'gb_api_test_owner_token');
    const local = await LocalTransport.as(ctx, undefined, { userId: boot!.userId }, dir);
    const orgId = ((await local.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
    // In-process, without workers: the spec stays pending in the store.
    const put = await local.call('createOrUpdateOpenAPISpecBySlug', {
      path: { organizationId: orgId, specSlug: 'later' },
      body: { source: { text: petstore('Later') } },
    });
    expect((put.body as any).processingState).toBe('pending');
    await local.close();
    await ctx.store.close();
    const server = await startServer({ dataDir: dir });
    try {
      const done = await completed(server, `/v1/orgs/${orgId}/openapi/later`);
      expect(done.lastVersion).toBeDefined();
      expect(done.lastProcessErrorCode).toBeUndefined();
    } finally {
      await server.stop();
    }
  });
});
