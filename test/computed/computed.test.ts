import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingIdle } from '../../src/openapi/processor.js';
import { translationsIdle } from '../../src/translations/runner.js';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg } from '../organizations/people.js';
import { startFakeTranslator } from '../translations/fake-translator.js';

// Computed content (src/computed, docs/manual/content.md#computed-content): getComputedDocument and
// getComputedRevision for builtin:openapi (a spec's outline as openapi-operation blocks and pages)
// and builtin:translation (a translation's latest result); any other source is a 400 naming it.

const SPEC = `openapi: 3.1.0
info: {title: Pets API, version: '2.1', description: 'Manage **pets**.'}
servers: [{url: 'https://api.example.com'}]
tags:
  - {name: pets, description: 'Everything about pets.'}
  - {name: stores}
paths:
  /pets:
    get: {tags: [pets], summary: List pets, responses: {'200': {description: ok}}}
    post: {tags: [pets], summary: Add a pet, responses: {'201': {description: ok}}}
  /stores/{id}:
    get: {tags: [stores], operationId: getStore, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}
  /health:
    get: {responses: {'200': {description: ok}}}
webhooks:
  newPet:
    put: {summary: A pet was added, responses: {'200': {description: ok}}}
components:
  schemas:
    Pet: {type: object}
    Store: {type: object}
`;

let s: TestServer;
let org: string;
let space: string;
let fake: Awaited<ReturnType<typeof startFakeTranslator>>;

const openapi = (props: Record<string, unknown>, spec = 'pets') => ({
  seed: 'seed-1',
  source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec } } }, props },
});
const computeDoc = (body: unknown, token?: string, sp = space) =>
  s.api('POST', `/v1/spaces/${sp}/content/computed/document`, { body, ...(token ? { token } : {}) });
const computeRev = (body: unknown, token?: string, sp = space) =>
  s.api('POST', `/v1/spaces/${sp}/content/computed/revision`, { body, ...(token ? { token } : {}) });
const op = (path: string, method: string, spec = 'pets') => ({
  object: 'block',
  type: 'openapi-operation',
  isVoid: true,
  data: { ref: { kind: 'openapi', spec }, path, method },
});

beforeAll(async () => {
  s = await startServer();
  fake = await startFakeTranslator();
  org = await newOrg(s);
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'API', language: 'en' } })).body.id;
  expect((await s.api('PUT', `/v1/orgs/${org}/openapi/pets`, { body: { source: { text: SPEC } } })).status).toBeLessThan(300);
  await processingIdle(s.ctx);
});
afterAll(async () => {
  await translationsIdle(s.ctx);
  await s.stop();
  await fake.close();
});

describe('builtin:openapi documents', () => {
  it('operations of a tag: its description, then a block per operation', async () => {
    const r = await computeDoc(openapi({ doc: 'operations', page: 'pets' }));
    expect(r.status).toBe(200);
    expect(r.body.object).toBe('document');
    expect(r.body.nodes.slice(-2)).toEqual([op('/pets', 'get'), op('/pets', 'post')]);
    expect(JSON.stringify(r.body.nodes[0])).toContain('Everything about pets.');
    // A tag by its slug too; operations without a tag are under "Other".
    expect((await computeDoc(openapi({ doc: 'operations', page: 'Other' }))).body.nodes).toEqual([op('/health', 'get')]);
  });

  it('models, info, and (0.202.0) one operation or a tag with its title', async () => {
    const models = (await computeDoc(openapi({ doc: 'models' }))).body;
    expect(models.nodes).toEqual([
      { object: 'block', type: 'openapi-schemas', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, schemas: ['Pet', 'Store'], grouped: true } },
    ]);
    const info = JSON.stringify((await computeDoc(openapi({ doc: 'info', page: 'x' }))).body);
    for (const t of ['Pets API', 'Version 2.1', 'pets', 'https://api.example.com']) expect(info).toContain(t);
    expect((await computeDoc(openapi({ doc: 'operation', page: '/stores/{id}', method: 'get' }))).body.nodes).toEqual([op('/stores/{id}', 'get')]);
    expect((await computeDoc(openapi({ doc: 'operation', page: 'newPet', method: 'hook' }))).body.nodes).toEqual([
      { object: 'block', type: 'openapi-webhook', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, name: 'newPet', method: 'put' } },
    ]);
    expect((await computeDoc(openapi({ doc: 'operation', page: 'oldPet', method: 'hook' }))).status).toBe(400);
    const tag = (await computeDoc(openapi({ doc: 'tag', page: 'stores' }))).body.nodes;
    expect(tag[0]).toMatchObject({ type: 'heading-1', nodes: [{ leaves: [{ text: 'stores' }] }] });
    expect(tag.at(-1)).toEqual(op('/stores/{id}', 'get'));
  });

  it('refuses what the spec lacks with a 400 naming it', async () => {
    const tag = await computeDoc(openapi({ doc: 'operations', page: 'birds' }));
    expect(tag.status).toBe(400);
    expect(tag.body.error.message).toBe('source.props.page: no tag "birds" with operations in the spec (tags: pets, stores, Other)');
    const one = await computeDoc(openapi({ doc: 'operation', page: '/pets', method: 'delete' }));
    expect(one.body.error.message).toBe('source.props: no operation DELETE /pets in the spec');
    const spec = await computeDoc(openapi({ doc: 'models' }, 'nope'));
    expect(spec.status).toBe(400);
    expect(spec.body.error.message).toBe(`source.dependencies.spec.ref.spec: no OpenAPI spec "nope" in the organization of space ${space}`);
  });
});

describe('builtin:openapi revisions', () => {
  it('a page per tag (by-tag), the models last; ids come from the seed', async () => {
    const r = await computeRev(openapi({ models: true }));
    expect(r.status).toBe(200);
    expect(r.body.files).toEqual([]);
    expect(r.body.reusableContents).toEqual([]);
    expect(r.body.pages.map((p: any) => [p.title, p.path])).toEqual([
      ['pets', 'pets'],
      ['stores', 'stores'],
      ['Other', 'other'],
      ['Models', 'models'],
    ]);
    expect(r.body.pages[0].document.nodes.slice(-2)).toEqual([op('/pets', 'get'), op('/pets', 'post')]);
    // The same seed gives the same ids; another seed others.
    expect((await computeRev(openapi({ models: true }))).body.pages.map((p: any) => p.id)).toEqual(r.body.pages.map((p: any) => p.id));
    const other = await computeRev({ ...openapi({ models: true }), seed: 'seed-2' });
    expect(other.body.pages[0].id).not.toBe(r.body.pages[0].id);
    // Without models: no models page.
    expect((await computeRev(openapi({ models: false }))).body.pages).toHaveLength(3);
  });

  it('by-operation: a page per operation under its tag', async () => {
    const r = await computeRev(openapi({ models: false, grouping: 'by-operation' }));
    expect(r.status).toBe(200);
    const pets = r.body.pages[0];
    expect(pets.pages.map((p: any) => [p.title, p.path])).toEqual([
      ['List pets', 'pets/list-pets'],
      ['Add a pet', 'pets/add-a-pet'],
    ]);
    expect(pets.pages[1].document.nodes).toEqual([op('/pets', 'post')]);
  });
});

describe('sources, rights', () => {
  it('an integration source or an unknown one is a 400 naming it', async () => {
    const i = await computeDoc({ seed: 's', source: { type: 'integration:my-app:diagrams', props: {} } });
    expect(i.status).toBe(400);
    expect(i.body.error.message).toMatch(/^source\.type: integration:my-app:diagrams: content computed by an integration is not available on this server/);
    const u = await computeRev({ seed: 's', source: { type: 'builtin:nothing', props: {} } });
    expect(u.status).toBe(400);
  });

  it('needs to see the space (and the spec); a guest and an outsider are refused', async () => {
    const reader = await addPerson(s, org, 'read');
    expect((await computeDoc(openapi({ doc: 'models' }), reader.token)).status).toBe(200);
    const guest = await addPerson(s, org, null);
    expect((await computeDoc(openapi({ doc: 'models' }), guest.token)).status).toBe(404);
    expect((await computeRev(openapi({ models: true }), undefined, 'AAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });
});

describe('builtin:translation', () => {
  it("computes the translation's latest result: the revision, or one page's document", async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Page' } })).body.id;
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_page', type: 'document', title: 'Welcome', document: { markdown: 'Hello there.' } }] },
    });
    expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
    const t = (await s.api('POST', `/v1/orgs/${org}/translations`, { body: { source: { space, language: 'en' }, language: 'fr' } })).body;
    const dep = { translation: { ref: { kind: 'translation', translation: t.id } } };
    // Before any run: nothing to compute.
    const early = await computeRev({ seed: 's', source: { type: 'builtin:translation', props: {}, dependencies: dep } });
    expect(early.status).toBe(412);
    expect(early.body.error.message).toMatch(/has not run yet/);
    await s.api('POST', `/v1/orgs/${org}/translations/${t.id}/run`);
    await translationsIdle(s.ctx);
    const rev = await computeRev({ seed: 's', source: { type: 'builtin:translation', props: {}, dependencies: dep } });
    expect(rev.status).toBe(200);
    expect(rev.body.pages[0].title).toBe('[fr] Welcome');
    expect(JSON.stringify(rev.body.pages[0].document)).toContain('[fr] Hello there.');
    const page = (await s.api('GET', `/v1/spaces/${space}/content`)).body.pages[0];
    const d = await computeDoc({ seed: 's', source: { type: 'builtin:translation', props: { space, document: page.documentId }, dependencies: dep } });
    expect(d.status).toBe(200);
    expect(JSON.stringify(d.body)).toContain('[fr] Hello there.');
    const missing = await computeDoc({ seed: 's', source: { type: 'builtin:translation', props: { space, document: 'nope' }, dependencies: dep } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(`source.props.document: no page of space ${space} has document nope`);
  });
});

async function scenario(t: Transport) {
  const { out, step } = recorder();
  const organizationId = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const spaceId = ((await t.call('createSpace', { path: { organizationId }, body: { title: 'Computed' } })).body as any).id;
  await step(() => t.call('createOpenAPISpec', { path: { organizationId }, body: { slug: 'pets', source: { text: SPEC } } }));
  for (let i = 0; i < 500; i++) {
    if (((await t.call('getOpenAPISpecBySlug', { path: { organizationId, specSlug: 'pets' } })).body as any).processingState === 'complete') break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await step(() => t.call('getComputedDocument', { path: { spaceId }, body: openapi({ doc: 'operations', page: 'pets' }) }));
  await step(() => t.call('getComputedRevision', { path: { spaceId }, body: openapi({ models: true }) }));
  await step(() => t.call('getComputedDocument', { path: { spaceId }, body: openapi({ doc: 'models' }, 'nope') }));
  return out;
}

describe('over both transports, and the CLI', () => {
  it('gives the same results in-process and over HTTP', async () => {
    const { local, remote } = await runBoth(s, scenario);
    expect(local).toEqual(remote);
    expect(JSON.stringify(local)).toContain('"kind":"invalid"');
  });

  it('docs content computed document / revision', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const source = JSON.stringify(openapi({ doc: 'models' }).source);
    const d = await docs(['content', 'computed', 'document', space, '--source', source, '--json'], env);
    expect(d.status, d.stderr).toBe(0);
    expect(d.json.nodes[0].type).toBe('openapi-schemas');
    const r = await docs(['content', 'computed', 'revision', space, '--source', JSON.stringify(openapi({ models: true }).source), '--json'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(r.json.pages).toHaveLength(4);
    const bad = await docs(['content', 'computed', 'document', space, '--source', JSON.stringify(openapi({ doc: 'models' }, 'nope').source)], env);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('no OpenAPI spec "nope"');
  });
});
