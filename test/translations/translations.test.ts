import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { readSourcePages } from '../../src/translations/content.js';
import { translationsIdle } from '../../src/translations/runner.js';
import { LibreTranslate } from '../../src/translations/translator.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from '../organizations/people.js';
import { startFakeTranslator } from './fake-translator.js';

const clock = new ManualClock(Date.parse('2026-06-01T12:00:00.000Z'));
let s: TestServer;
let org: string;
let fake: Awaited<ReturnType<typeof startFakeTranslator>>;
const base = (o = org) => `/v1/orgs/${o}/translations`;
const ENV = ['DOCS_TRANSLATOR_URL', 'DOCS_TRANSLATOR_TIMEOUT_MS', 'DOCS_TRANSLATOR_API_KEY'];

beforeAll(async () => {
  s = await startServer({ clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  fake = await startFakeTranslator();
});
afterAll(async () => {
  await s.stop();
  await fake.close();
});
afterEach(async () => {
  await translationsIdle(s.ctx);
  for (const k of ENV) delete process.env[k];
  fake.state.mode = 'ok';
});

async function space(title = 'Guide', o = org, language?: string) {
  const r = await s.api('POST', `/v1/orgs/${o}/spaces`, { body: { title, ...(language ? { language } : {}) } });
  expect(r.status).toBe(201);
  return r.body;
}

async function create(body: unknown, o = org, token?: string) {
  return s.api('POST', base(o), { body, ...(token ? { token } : {}) });
}

/** Asks for a run and waits for the run off the request path to end. */
async function run(id: string, o = org) {
  const r = await s.api('POST', `${base(o)}/${id}/run`);
  expect(r.status).toBe(204);
  await translationsIdle(s.ctx);
  return (await s.api('GET', `${base(o)}/${id}`)).body;
}

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
}

const doc = (text: string) => ({
  object: 'document',
  data: {},
  nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});

describe('translations: create, list, get, update, delete', () => {
  it('creates (201, pending, no result yet), lists, gets, updates instructions, deletes (205 then 204)', async () => {
    const src = await space('Handbook');
    const r = await create({ source: { space: src.id, language: 'en' }, language: 'fr', instructions: doc('Use formal French.') });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      object: 'translation',
      status: 'pending',
      source: { space: src.id, language: 'en' },
      language: 'fr',
      instructions: doc('Use formal French.'),
      permissions: { view: true, edit: true },
    });
    expect(r.body.stats).toEqual({ runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 });
    expect(r.body.result).toBeUndefined();
    expect(r.body.urls.location).toBe(`${s.url}${base()}/${r.body.id}`);
    expect((await s.api('GET', `${base()}/${r.body.id}`)).body).toEqual(r.body);
    const list = await s.api('GET', base());
    expect(list.body.items.map((t: any) => t.id)).toContain(r.body.id);
    clock.advance(1000);
    const up = await s.api('PUT', `${base()}/${r.body.id}`, { body: { instructions: doc('Use informal French.') } });
    expect(up.status).toBe(200);
    expect(up.body.instructions).toEqual(doc('Use informal French.'));
    expect(up.body.updatedAt).toBe(clock.now().toISOString());
    expect((await s.api('DELETE', `${base()}/${r.body.id}`)).status).toBe(205);
    expect((await s.api('DELETE', `${base()}/${r.body.id}`)).status).toBe(204);
    expect((await s.api('GET', `${base()}/${r.body.id}`)).status).toBe(404);
    expect((await s.api('PUT', `${base()}/${r.body.id}`, { body: { instructions: doc('x') } })).status).toBe(404);
    expect((await s.api('POST', `${base()}/${r.body.id}/run`)).status).toBe(404);
  });

  it('refuses bad input with 400 naming the field, and a second translation of a space to a language with 409', async () => {
    const src = await space('Specs', org, 'en');
    const bad = async (body: unknown, message: string | RegExp) => {
      const r = await create(body);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
    };
    await bad({ source: { space: src.id, language: 'en' } }, /language/);
    await bad({ source: { space: src.id, language: 'en' }, language: 'klingon' }, /language/);
    await bad({ source: { space: 'nope', language: 'en' }, language: 'fr' }, 'source.space: no space nope in this organization');
    await bad({ source: { space: src.id, language: 'de' }, language: 'fr' }, `source.language: space ${src.id} is in en, not de`);
    await bad({ source: { space: src.id, language: 'en' }, language: 'en' }, 'language: must differ from source.language (en)');
    const other = await newOrg(s);
    const foreign = await space('Elsewhere', other);
    await bad({ source: { space: foreign.id, language: 'en' }, language: 'fr' }, `source.space: no space ${foreign.id} in this organization`);
    expect((await create({ source: { space: src.id, language: 'en' }, language: 'es' })).status).toBe(201);
    const dup = await create({ source: { space: src.id, language: 'en' }, language: 'es' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toMatch(/^language: space .* already has a translation to es/);
  });

  it('lets read and up see translations and create and up change them; guests 403, non-members 404', async () => {
    const o = await newOrg(s);
    const src = await space('Team docs', o);
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'de' }, o)).body;
    const reader = await addPerson(s, o, 'edit');
    const creator = await addPerson(s, o, 'create');
    const guest = await addPerson(s, o, null);
    const stranger = await outsider(s);
    const seen = await s.api('GET', `${base(o)}/${t.id}`, { token: reader.token });
    expect(seen.body.permissions).toEqual({ view: true, edit: false });
    const denied = await s.api('POST', `${base(o)}/${t.id}/run`, { token: reader.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('running a translation needs the create role in this organization (you have edit)');
    expect((await s.api('PUT', `${base(o)}/${t.id}`, { token: reader.token, body: { instructions: doc('x') } })).status).toBe(403);
    expect((await s.api('DELETE', `${base(o)}/${t.id}`, { token: reader.token })).status).toBe(403);
    expect((await create({ source: { space: src.id, language: 'en' }, language: 'it' }, o, reader.token)).status).toBe(403);
    expect((await s.api('GET', `${base(o)}/${t.id}`, { token: creator.token })).body.permissions).toEqual({ view: true, edit: true });
    expect((await s.api('GET', base(o), { token: guest.token })).status).toBe(403);
    expect((await s.api('GET', base(o), { token: stranger.token })).status).toBe(404);
    expect((await s.api('GET', `${base(o)}/${t.id}`, { token: stranger.token })).status).toBe(404);
    expect((await s.api('GET', `${base()}/${t.id}`)).status).toBe(404); // not through another organization
    expect((await s.api('GET', `${base(o)}/${t.id}`)).body.status).toBe('pending'); // nothing changed
  });
});

describe('translation runs', () => {
  it('without a translator configured, a run fails saying so, and copies nothing', async () => {
    const src = await space('Untranslated');
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'ja' })).body;
    const spacesBefore = (await s.api('GET', `/v1/orgs/${org}/spaces?limit=1000`)).body.count;
    const after = await run(t.id);
    expect(after.status).toBe('pending');
    expect(after.error).toMatchObject({ code: 'NO_TRANSLATOR', message: expect.stringContaining('DOCS_TRANSLATOR_URL') });
    expect(after.result).toBeUndefined();
    expect(after.stats.runs).toBe(0);
    expect((await s.api('GET', `/v1/orgs/${org}/spaces?limit=1000`)).body.count).toBe(spacesBefore);
  });

  it('translates through the configured translator into a new space, then a new revision of it, with true stats', async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    process.env.DOCS_TRANSLATOR_API_KEY = 'k3y';
    const src = await space('Getting started guide', org, 'en');
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'pt-br' })).body;
    fake.state.requests.length = 0;
    const first = await run(t.id);
    expect(first.status).toBe('completed');
    expect(first.error).toBeUndefined();
    expect(fake.state.requests).toEqual([
      { method: 'POST', url: '/translate', body: { q: ['Getting started guide'], source: 'en', target: 'pb', format: 'text', api_key: 'k3y' } },
    ]);
    const target = (await s.api('GET', `/v1/spaces/${first.result.space}`)).body;
    expect(target).toMatchObject({ title: '[pb] Getting started guide', language: 'pt-br', revision: first.result.revision, organization: org });
    expect(first.stats).toEqual({ runs: 1, totalWords: 3, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 3 });
    // The run is one translation credit of the organization's AI usage (docs/manual/organizations.md#ai-usage).
    const usage = (await s.api('GET', `/v1/orgs/${org}/billing/ai-usage?from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z`)).body;
    expect(usage.periods[0].features).toContainEqual(expect.objectContaining({ feature: 'translation', credits: expect.any(Number) }));
    // A later run writes a new revision of the same space; durations come from the clock.
    await s.api('PATCH', `/v1/spaces/${src.id}`, { body: { title: 'Start here' } });
    let release!: () => void;
    fake.state.hold = new Promise<void>((r) => (release = r));
    expect((await s.api('POST', `${base()}/${t.id}/run`)).status).toBe(204);
    await until(async () => (await s.api('GET', `${base()}/${t.id}`)).body.status === 'running');
    clock.advance(90_000);
    fake.state.hold = undefined;
    release();
    await translationsIdle(s.ctx);
    const second = (await s.api('GET', `${base()}/${t.id}`)).body;
    expect(second.status).toBe('completed');
    expect(second.result.space).toBe(first.result.space);
    expect(second.result.revision).not.toBe(first.result.revision);
    expect((await s.api('GET', `/v1/spaces/${first.result.space}`)).body).toMatchObject({ title: '[pb] Start here', revision: second.result.revision });
    expect(second.stats).toEqual({ runs: 2, totalWords: 5, totalPages: 0, totalDuration: 90, latestRunDuration: 90, latestPages: 0, latestWords: 2 });
  });

  it('translates every page of the source, title and markdown, keeping the tree and page ids', async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    const src = await space('Handbook', org, 'en');
    const cr = (await s.api('POST', `/v1/spaces/${src.id}/change-requests`, { body: { subject: 'Write' } })).body;
    const changes = [
      { operation: 'insert_page', ref: 'intro', title: 'Introduction', document: { markdown: 'Welcome to the handbook.' } },
      { operation: 'insert_page', into: 'intro', title: 'Setup', document: { markdown: 'Install the tools.' } },
    ];
    expect((await s.api('POST', `/v1/spaces/${src.id}/change-requests/${cr.id}/content`, { body: { changes } })).status).toBe(200);
    expect((await s.api('POST', `/v1/spaces/${src.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const sourcePages = (await s.api('GET', `/v1/spaces/${src.id}/content/pages`)).body.pages;
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'fr' })).body;
    const done = await run(t.id);
    expect(done.status).toBe('completed');
    const pages = (await s.api('GET', `/v1/spaces/${done.result.space}/content/pages`)).body.pages;
    const shape = (ps: any[]): any[] => ps.map((p) => [p.id, p.title, shape(p.pages ?? [])]);
    const ids = (ps: any[]): any[] => ps.map((p) => [p.id, ids(p.pages ?? [])]);
    expect(ids(pages)).toEqual(ids(sourcePages));
    expect(shape(pages)).toEqual(
      shape(sourcePages).map(function tr(x: any): any {
        return [x[0], `[fr] ${x[1]}`, x[2].map(tr)];
      }),
    );
    const setup = pages[0].pages[0];
    const md = (await s.api('GET', `/v1/spaces/${done.result.space}/content/page/${setup.id}?format=markdown`)).body.markdown;
    expect(md).toContain('[fr] Install the tools.');
    expect(done.stats).toMatchObject({ runs: 1, latestPages: 2, totalPages: 2 });
  });

  it('reports translator failures and timeouts in the translation, keeping the last result', async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    const src = await space('Reference');
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'de' })).body;
    const ok = await run(t.id);
    expect(ok.status).toBe('completed');
    fake.state.mode = 'fail';
    const failed = await run(t.id);
    expect(failed).toMatchObject({ status: 'pending', result: ok.result, error: { code: 'TRANSLATOR_ERROR' } });
    expect(failed.error.message).toMatch(/answered 500: model not loaded/);
    expect(failed.stats.runs).toBe(1);
    fake.state.mode = 'garbage';
    expect((await run(t.id)).error.message).toMatch(/no translatedText/);
    fake.state.mode = 'hang';
    process.env.DOCS_TRANSLATOR_TIMEOUT_MS = '200';
    const slow = await run(t.id);
    expect(slow.error).toMatchObject({ code: 'TRANSLATOR_TIMEOUT', message: expect.stringContaining('200 ms') });
    fake.state.mode = 'ok';
    const again = await run(t.id);
    expect(again).toMatchObject({ status: 'completed', result: { space: ok.result.space } });
    expect(again.error).toBeUndefined();
  });

  it('fails with the reason when the source space is gone, or the target cannot be created', async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    const o = await newOrg(s);
    const src = await space('Temporary', o);
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'fr' }, o)).body;
    // A member with `create` asks for the first run, then is made `edit` while it runs: the
    // target space is created with their rights, so it is refused and nothing is created.
    const creator = await addPerson(s, o, 'create');
    let release!: () => void;
    fake.state.hold = new Promise<void>((r) => (release = r));
    expect((await s.api('POST', `${base(o)}/${t.id}/run`, { token: creator.token })).status).toBe(204);
    await until(async () => (await s.api('GET', `${base(o)}/${t.id}`)).body.status === 'running');
    expect((await s.api('PATCH', `/v1/orgs/${o}/members/${creator.id}`, { body: { role: 'edit' } })).status).toBe(200);
    fake.state.hold = undefined;
    release();
    await translationsIdle(s.ctx);
    const refused = (await s.api('GET', `${base(o)}/${t.id}`)).body;
    expect(refused).toMatchObject({ status: 'pending', error: { code: 'TARGET_REFUSED' } });
    expect(refused.error.message).toBe(
      "creating the target space: creating a space at the organization's root needs the create role in this organization (you have edit)",
    );
    expect((await s.api('GET', `/v1/orgs/${o}/spaces`)).body.count).toBe(1);
    // The source space deleted: the run fails before anything is sent.
    await s.api('DELETE', `/v1/spaces/${src.id}`);
    const gone = await run(t.id, o);
    expect(gone.error).toMatchObject({ code: 'SOURCE_MISSING', message: `source.space: space ${src.id} no longer exists` });
    await s.ctx.store.read((tx) => expect(() => readSourcePages(tx, src.id)).toThrow(/no longer exists/));
  });

  it('writes a new target space when the previous one was deleted; deleting the translation keeps its space', async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    const src = await space('Changelog');
    const t = (await create({ source: { space: src.id, language: 'en' }, language: 'it' })).body;
    const first = await run(t.id);
    expect((await s.api('DELETE', `/v1/spaces/${first.result.space}`)).status).toBe(205);
    const second = await run(t.id);
    expect(second.status).toBe('completed');
    expect(second.result.space).not.toBe(first.result.space);
    expect((await s.api('GET', `/v1/spaces/${second.result.space}`)).body).toMatchObject({ title: '[it] Changelog', language: 'it' });
    expect((await s.api('DELETE', `${base()}/${t.id}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/spaces/${second.result.space}`)).status).toBe(200);
  });

  it('the LibreTranslate client sends texts in batches and keeps their order', async () => {
    const texts = Array.from({ length: 120 }, (_, i) => `text ${i}`);
    fake.state.requests.length = 0;
    const out = await new LibreTranslate(fake.url + '/', undefined, 5000).translate(texts, 'en', 'fr');
    expect(out).toEqual(texts.map((t) => `[fr] ${t}`));
    expect(fake.state.requests.map((r) => r.body.q.length)).toEqual([50, 50, 20]);
  });
});
