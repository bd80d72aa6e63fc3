import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { protectTerms, termsFor } from '../../src/translations/glossary.js';
import type { GlossaryEntryRecord } from '../../src/translations/model.js';
import { translationsIdle } from '../../src/translations/runner.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { startFakeTranslator } from './fake-translator.js';

// The translation glossary (docs/manual/translations.md#glossary): entries listed, read and
// changed in batches (all or none, 400 naming the operation), and honoured by translation runs:
// a term the glossary gives in both languages reaches the translated page as the glossary says.

let s: TestServer;
let org: string;
let fake: Awaited<ReturnType<typeof startFakeTranslator>>;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  fake = await startFakeTranslator();
});
afterAll(async () => {
  await s.stop();
  await fake.close();
});
afterEach(async () => {
  await translationsIdle(s.ctx);
  delete process.env.DOCS_TRANSLATOR_URL;
});

const G = () => `/v1/orgs/${org}/translations-glossary`;
const update = (operations: object[], token?: string) => s.api('PUT', G(), { body: { operations }, ...(token ? { token } : {}) });
const list = async () => (await s.api('GET', G())).body.items as any[];

describe('glossary entries', () => {
  it('inserts, lists, gets, updates and deletes in batches; bad batches change nothing', async () => {
    expect(
      (
        await update([
          { type: 'insert', translations: { en: 'Workspace', fr: 'Espace de travail' } },
          { type: 'insert', translations: { EN: 'Gadget' } },
        ])
      ).status,
    ).toBe(204);
    // Oldest first; two inserted by one call are as old as each other (ordered here by their term).
    const items = (await list()).sort((a, b) => b.translations.en.localeCompare(a.translations.en));
    expect(items.map((e) => e.translations)).toEqual([{ en: 'Workspace', fr: 'Espace de travail' }, { en: 'Gadget' }]);
    const one = await s.api('GET', `${G()}/${items[0].id}`);
    expect(one.body).toMatchObject({ object: 'glossary-entry', id: items[0].id, urls: { location: `${s.url}${G()}/${items[0].id}` } });
    expect(
      (
        await update([
          { type: 'update', id: items[1].id, translations: { en: 'Gadget', de: 'Gerät' } },
          { type: 'delete', id: items[0].id },
        ])
      ).status,
    ).toBe(204);
    expect((await list()).map((e) => e.translations)).toEqual([{ en: 'Gadget', de: 'Gerät' }]);
    expect((await s.api('GET', `${G()}/${items[0].id}`)).status).toBe(404);

    const before = await list();
    const bad = async (operations: object[], message: RegExp) => {
      const r = await update(operations);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    };
    await bad(
      [
        { type: 'insert', translations: { en: 'Ok' } },
        { type: 'delete', id: 'nope' },
      ],
      /^operations\[1\]\.id: no glossary entry nope/,
    );
    await bad([{ type: 'insert', translations: { 'not a code': 'x' } }], /^operations\[0\]\.translations\.not a code: not a language code/);
    await bad([{ type: 'insert', translations: { en: 'A', EN: 'B' } }], /the language is given twice/);
    await bad([{ type: 'insert', translations: {} }], /at least one language/);
    expect(await list()).toEqual(before);

    // Reading takes a member; changing takes the create role.
    const reader = await addUser(s.ctx, org, 'read');
    expect((await s.api('GET', G(), { token: reader.token })).status).toBe(200);
    expect((await update([{ type: 'insert', translations: { en: 'X' } }], reader.token)).status).toBe(403);
  });

  it('a translation run writes the glossary term, not the translator’s', async () => {
    process.env.DOCS_TRANSLATOR_URL = fake.url;
    await update([{ type: 'insert', translations: { en: 'docs site', fr: 'site de documentation' } }]);
    const src = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Handbook', language: 'en' } })).body;
    const cr = (await s.api('POST', `/v1/spaces/${src.id}/change-requests`, { body: { subject: 'Write' } })).body;
    const changes = [{ operation: 'insert_page', title: 'Publishing', document: { markdown: 'Publish your Docs Site today.' } }];
    expect((await s.api('POST', `/v1/spaces/${src.id}/change-requests/${cr.id}/content`, { body: { changes } })).status).toBe(200);
    expect((await s.api('POST', `/v1/spaces/${src.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const t = (await s.api('POST', `/v1/orgs/${org}/translations`, { body: { source: { space: src.id, language: 'en' }, language: 'fr' } })).body;
    expect((await s.api('POST', `/v1/orgs/${org}/translations/${t.id}/run`)).status).toBe(204);
    await translationsIdle(s.ctx);
    const done = (await s.api('GET', `/v1/orgs/${org}/translations/${t.id}`)).body;
    expect(done.status).toBe('completed');
    // What the translator saw: a placeholder for the term.
    expect(JSON.stringify(fake.state.requests.at(-1).body.q)).toMatch(/Publish your ⟦\d+⟧ today\./);
    const page = (await s.api('GET', `/v1/spaces/${done.result.space}/content/pages`)).body.pages[0];
    const md = (await s.api('GET', `/v1/spaces/${done.result.space}/content/page/${page.id}?format=markdown`)).body.markdown;
    expect(md).toContain('[fr] Publish your site de documentation today.');
  });

  it('terms: whole words in any case, longest first, only entries with both languages', () => {
    const entries: GlossaryEntryRecord[] = [
      { id: '1', organization: 'o', translations: { en: 'site', fr: 'site' }, createdAt: '', updatedAt: '' },
      { id: '2', organization: 'o', translations: { en: 'docs site', fr: 'site de documentation' }, createdAt: '', updatedAt: '' },
      { id: '3', organization: 'o', translations: { en: 'API' }, createdAt: '', updatedAt: '' },
    ];
    const pairs = termsFor(entries, 'en', 'fr');
    expect(pairs).toEqual([
      ['docs site', 'site de documentation'],
      ['site', 'site'],
    ]);
    const p = protectTerms(['A Docs Site, a website, a site.'], pairs);
    expect(p.texts).toEqual(['A ⟦0⟧, a website, a ⟦1⟧.']);
    expect(p.restore(['Un ⟦0⟧, un website, un ⟦1⟧.'])).toEqual(['Un site de documentation, un website, un site.']);
  });
});
