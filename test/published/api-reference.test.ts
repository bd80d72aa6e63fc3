import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingIdle } from '../../src/openapi/processor.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { all, api, attrOf, byClass, byTag, edit, get, h1, mainOf, page, spaceWith, textOf } from './fixture.js';
import { PETS } from './api-fixture.js';
import { SITE_JS } from '../../src/published/render/script.js';

// An organization's OpenAPI spec published as an API reference: a page with the line
// `{% openapi-reference spec="<slug>" %}` gets one page per tag and, under it, one per operation.

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let base: string;
let spaceId: string;

const putSpec = async (slug: string, doc: object) => {
  await call('PUT', `/v1/orgs/${org}/openapi/${slug}`, { source: { text: JSON.stringify(doc) } });
  await processingIdle(s.ctx);
  const spec = await call('GET', `/v1/orgs/${org}/openapi/${slug}`);
  expect(spec.processingState).toBe('complete');
  expect(spec.lastProcessErrorCode).toBeUndefined();
};

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  await putSpec('pets', PETS);
  const a = await spaceWith(s, org, 'Docs', [page('a', 'Intro', 'Hello.'), page('b', 'API', 'Our API.\n\n{% openapi-reference spec="pets" %}\n')]);
  spaceId = a.space.id;
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Pets Site', spaces: [a.space.id] });
  base = new URL((await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published).pathname;
}, 60_000);
afterAll(() => s?.stop());

describe('API reference from an OpenAPI spec', () => {
  it('draws one page per operation, grouped by tag, in the page tree', async () => {
    const home = await get(s, `${base}/api`);
    expect(home.status).toBe(200);
    const nav = all(home.doc, (n) => n.tagName === 'nav' && attrOf(n, 'aria-label') === 'Pages')[0];
    const hrefs = byTag(nav, 'a').map((a) => attrOf(a, 'href'));
    expect(hrefs).toEqual(
      expect.arrayContaining([`${base}/api/pets`, `${base}/api/pets/getpet`, `${base}/api/pets/createpet`, `${base}/api/store/listorders`]),
    );
    // The reference page: its own text, then the spec's overview.
    expect(textOf(mainOf(home.doc))).toContain('Our API.');
    expect(textOf(mainOf(home.doc))).toContain('Pet Store');
    expect(home.text).not.toContain('openapi-reference');
    const tag = await get(s, `${base}/api/pets`);
    expect(h1(tag.doc)).toBe('Pets');
    expect(textOf(mainOf(tag.doc))).toContain('Everything about pets.');
  });

  it('an operation page shows method and path, parameters, body and responses, code samples and Test it', async () => {
    const r = await get(s, `${base}/api/pets/getpet`);
    expect(r.status).toBe(200);
    const main = mainOf(r.doc);
    expect(h1(r.doc)).toBe('Get a pet');
    expect(textOf(byClass(main, 'endpoint')[0])).toBe('GET /pets/{petId}');
    const text = textOf(main);
    expect(text).toContain('Path parameters');
    expect(text).toContain('petId');
    expect(text).toContain('The pet id');
    expect(text).toContain('Query parameters');
    expect(text).toContain('verbose');
    // Response schema: nested and collapsible, the recursive property named, not drawn forever.
    expect(byTag(main, 'details').some((d) => (attrOf(d, 'class') ?? '').includes('schema'))).toBe(true);
    const circular = await get(s, `${base}/api/pets/getpet?part=${encodeURIComponent('res/200/application%2Fjson/p.parent')}`);
    expect(textOf(byClass(circular.doc, 'api-part')[0])).toContain('Circular reference to Pet');
    expect(text).toContain('404');
    // Code samples: curl, JavaScript and Python.
    expect(text).toContain('curl -L');
    expect(text).toContain("--url 'https://api.pets.test/v1/pets/{petId}'");
    expect(text).toContain('Authorization: Bearer YOUR_SECRET_TOKEN');
    expect(text).toContain('await fetch("https://api.pets.test/v1/pets/{petId}"');
    expect(text).toContain('import requests');
    // Test it: a form the script sends from the browser; the CSP allows the spec's server only.
    const form = byClass(main, 'try-it')[0];
    expect(attrOf(form, 'data-path')).toBe('/pets/{petId}');
    expect(all(form, (n) => n.tagName === 'input' && attrOf(n, 'name') === 'path:petId')[0]).toBeDefined();
    expect(r.headers.get('content-security-policy')).toContain("connect-src 'self' https://api.pets.test;");
    // The page's outline lists the sections.
    expect(textOf(all(r.doc, (n) => attrOf(n, 'aria-label') === 'On this page')[0])).toContain('Parameters');
    // Cached: the same CSP the second time.
    expect((await get(s, `${base}/api/pets/getpet`)).headers.get('content-security-policy')).toContain('https://api.pets.test');
    // A content page keeps the strict connect-src.
    expect((await get(s, `${base}/intro`)).headers.get('content-security-policy')).toContain("connect-src 'self';");
  });

  it('deeper schema levels load on demand: a <details> with a link to the part, which answers its properties', async () => {
    const r = await get(s, `${base}/api/pets/getpet`);
    const lazy = all(mainOf(r.doc), (n) => n.tagName === 'details' && attrOf(n, 'data-part'));
    expect(lazy.length).toBeGreaterThan(0);
    expect(textOf(mainOf(r.doc))).not.toContain('The city of the owner.');
    // The owner's properties, then its address's: each level a part of its own.
    const owner = lazy.find((n) => /p\.owner$/.test(decodeURIComponent(attrOf(n, 'data-part'))))!;
    const href = attrOf(byTag(owner, 'a')[0], 'href');
    expect(href).toBe(attrOf(owner, 'data-part'));
    const part = await get(s, `${base}/api/pets/getpet${href}`);
    expect(part.status).toBe(200);
    expect(textOf(byClass(part.doc, 'api-part')[0])).toContain('address');
    expect(part.text).toContain('<meta name="robots" content="noindex">');
    const deeper = all(byClass(part.doc, 'api-part')[0], (n) => n.tagName === 'details' && attrOf(n, 'data-part'))[0];
    const city = await get(s, `${base}/api/pets/getpet${attrOf(deeper, 'data-part')}`);
    expect(textOf(byClass(city.doc, 'api-part')[0])).toContain('The city of the owner.');
    expect((await get(s, `${base}/api/pets/getpet?part=res/200/nope`)).status).toBe(404);
    expect((await get(s, `${base}/api/pets/getpet?part=res/200/application%252Fjson/p.nope`)).status).toBe(404);
  });

  it('honours x-codeSamples and shows the request body', async () => {
    const r = await get(s, `${base}/api/pets/createpet`);
    const text = textOf(mainOf(r.doc));
    expect(text).toContain('Go SDK');
    expect(text).toContain('client.CreatePet(ctx, pet)');
    expect(text).toContain('Request body');
    expect(text).toContain('application/json');
    expect(text).toContain("--data '{");
  });

  it('sanitizes HTML in descriptions like page markdown', async () => {
    const r = await get(s, `${base}/api/pets/createpet`);
    const main = mainOf(r.doc);
    expect(byTag(main, 'script')).toEqual([]);
    expect(all(main, (n) => (n.attrs ?? []).some((a: any) => /^on/i.test(a.name)))).toEqual([]);
    expect(all(main, (n) => /javascript:/i.test(attrOf(n, 'href') ?? ''))).toEqual([]);
    expect(r.text).not.toContain('<script>alert');
    const op = await get(s, `${base}/api/pets/getpet`);
    expect(op.text).not.toContain('onmouseover');
  });

  it('.md and llms.txt include the operations', async () => {
    const md = await get(s, `${base}/api/pets/getpet.md`);
    expect(md.status).toBe(200);
    expect(md.text).toMatch(/^# Get a pet\n/);
    expect(md.text).toContain('`GET /pets/{petId}`');
    expect(md.text).toContain('`petId` (path, integer, required): The pet id');
    expect(md.text).toContain('curl -L');
    const llms = await get(s, `${base}/llms.txt`);
    expect(llms.text).toContain(`${base}/api/pets/getpet.md`);
    expect(llms.text).toContain('[List orders]');
    const full = await get(s, `${base}/llms-full.txt`);
    expect(full.text).toContain('`POST /pets`');
  });

  it('search finds operations', async () => {
    const r = await get(s, `${base}/~/search.json?q=${encodeURIComponent('create pet')}`);
    const urls = JSON.parse(r.text).groups.flatMap((g: any) => g.pages.map((p: any) => p.url));
    expect(urls).toContain(`${base}/api/pets/createpet`);
    const byPath = await get(s, `${base}/~/search.json?q=${encodeURIComponent('/orders')}`);
    expect(JSON.parse(byPath.text).groups.flatMap((g: any) => g.pages.map((p: any) => p.url))).toContain(`${base}/api/store/listorders`);
  });

  it("follows the spec's latest processed version", async () => {
    const next = structuredClone(PETS) as any;
    next.paths['/toys'] = { get: { tags: ['Store'], operationId: 'listToys', summary: 'List toys', responses: { '200': { description: 'Toys' } } } };
    await putSpec('pets', next);
    const r = await get(s, `${base}/api/store/listtoys`);
    expect(r.status).toBe(200);
    expect(h1(r.doc)).toBe('List toys');
    await putSpec('pets', PETS);
    expect((await get(s, `${base}/api/store/listtoys`)).status).toBe(404);
  });

  it('a reference to a spec of another organization or a missing spec draws no pages', async () => {
    await edit(s, spaceId, [page('c', 'Ghost', '{% openapi-reference spec="nope" %}')]);
    const r = await get(s, `${base}/ghost`);
    expect(r.status).toBe(200);
    expect((await get(s, `${base}/ghost/pets`)).status).toBe(404);
  });

  it("the site's script (with Test it) is valid JavaScript", () => {
    expect(() => new Function(SITE_JS)).not.toThrow();
  });

  it('a 2,000-operation spec renders in bounded time; so does a deeply recursive schema', async () => {
    const big: any = { openapi: '3.0.3', info: { title: 'Big', version: '1' }, servers: [{ url: 'https://big.test' }], paths: {}, components: { schemas: {} } };
    // A chain of schemas each pointing at the next and back at the first: deep and recursive.
    for (let i = 0; i < 30; i++)
      big.components.schemas[`N${i}`] = {
        type: 'object',
        properties: {
          next: { $ref: `#/components/schemas/N${(i + 1) % 30}` },
          self: { $ref: `#/components/schemas/N${i}` },
          list: { type: 'array', items: { $ref: '#/components/schemas/N0' } },
        },
      };
    for (let i = 0; i < 2000; i++) {
      big.paths[`/things/${i}`] = {
        get: {
          tags: [`T${i % 20}`],
          operationId: `thing${i}`,
          summary: `Thing ${i}`,
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/N0' } } } } },
        },
      };
    }
    await putSpec('big', big);
    const b = await spaceWith(s, org, 'Big API', [page('r', 'Reference', '{% openapi-reference spec="big" %}')]);
    const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Big Site', spaces: [b.space.id] });
    const bigBase = new URL((await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published).pathname;
    const t0 = performance.now();
    const r = await get(s, `${bigBase}/reference/t7/thing1987`);
    const took = performance.now() - t0;
    expect(r.status).toBe(200);
    expect(h1(r.doc)).toBe('Thing 1987');
    expect(r.text.length).toBeLessThan(2_000_000);
    expect(took).toBeLessThan(5000);
    const root = await get(s, `${bigBase}/reference`);
    expect(root.status).toBe(200);
    expect(root.text.length).toBeLessThan(3_000_000);
  }, 60_000);
});
