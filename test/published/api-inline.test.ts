import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../../src/documents/markdown.js';
import { joinPieces, splitOperations } from '../../src/documents/openapi-blocks.js';
import { processingIdle } from '../../src/openapi/processor.js';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { PETS } from './api-fixture.js';
import { all, api, attrOf, byClass, byTag, edit, get, mainOf, page, spaceWith, textOf } from './fixture.js';

// `{% openapi-operation spec="<slug>" path="<path>" method="<method>" %}` blocks inside ordinary
// pages (docs/manual/api-reference.md#one-operation-inside-a-page): markdown <-> Document node,
// pushed and pulled as written, drawn in place on the published site with the reference's renderer.

const BLOCK = (spec: string, path: string, method: string, link = true) =>
  `{% openapi-operation spec="${spec}" path="${path}" method="${method}" %}\n${link ? `[OpenAPI ${spec}](https://example.test/${spec}.json)\n` : ''}{% endopenapi-operation %}`;

const PAGE = `Before the operation.\n\n${BLOCK('pets', '/pets/{petId}', 'get')}\n\n## Between\n\nSome text.\n\n${BLOCK('pets', '/pets', 'post', false)}\n\nAfter.\n`;

describe('markdown <-> Document (DocumentBlockOpenAPIOperation)', () => {
  const specs = ['gitbook-api-latest', 'gitbook-api-0146'].map((p) => JSON.parse(readFileSync(join('node_modules', p, 'spec', 'openapi.json'), 'utf8')));

  it('a block is a node valid against both specs, and back to the same markdown', async () => {
    const doc = await markdownToDocument(PAGE);
    const nodes = doc.nodes.filter((n) => n.type === 'openapi-operation');
    expect(nodes).toEqual([
      { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets/{petId}', method: 'get' } },
      { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'post' } },
    ]);
    expect(doc.nodes.map((n) => n.type)).toEqual(['paragraph', 'openapi-operation', 'heading-2', 'paragraph', 'openapi-operation', 'paragraph']);
    for (const spec of specs) {
      const ajv = new Ajv({ strict: false, validateFormats: false });
      ajv.addSchema(spec, 'spec');
      const node = ajv.getSchema('spec#/components/schemas/DocumentBlockOpenAPIOperation')!;
      for (const n of nodes) expect(node(n), JSON.stringify(node.errors)).toBe(true);
      const whole = ajv.getSchema('spec#/components/schemas/JSONDocument')!;
      expect(whole(doc), JSON.stringify(whole.errors?.slice(0, 3))).toBe(true);
    }
    // The link line GitBook writes between the tags names the spec's file: the node has no field
    // for it, so a Document gives the two tags back.
    const md = documentToMarkdown(doc);
    expect(md).toContain(`${BLOCK('pets', '/pets/{petId}', 'get', false)}\n\n## Between`);
    expect(documentToMarkdown(await markdownToDocument(md))).toBe(md);
  });

  it('splits only real blocks: not in code, not without a spec, path or method; joins back to the same text', () => {
    const text = `${BLOCK('a', '/x', 'GET')}\n\`\`\`\n${BLOCK('b', '/y', 'get')}\n\`\`\`\n{% openapi-operation spec="c" path="/z" %}\n{% endopenapi-operation %}\n`;
    const pieces = splitOperations(text);
    expect(pieces.flatMap((p) => ('ref' in p ? [p.ref] : []))).toEqual([{ spec: 'a', path: '/x', method: 'get' }]);
    expect(joinPieces(pieces)).toBe(text);
    // An opening tag with no closing one is a block of its own line.
    const open = `${'{% openapi-operation spec="a" path="/x" method="get" %}'}\n\nText.\n\nMore.\n`;
    const p2 = splitOperations(open);
    expect(p2.map((p) => ('ref' in p ? 'block' : p.text))).toEqual(['block', '\nText.\n\nMore.\n']);
    expect(joinPieces(p2)).toBe(open);
  });
});

let s: TestServer;
let call: ReturnType<typeof api>;
let org: string;
let base: string;
let spaceId: string;

const putSpec = async (slug: string, doc: object) => {
  await call('PUT', `/v1/orgs/${org}/openapi/${slug}`, { source: { text: JSON.stringify(doc) } });
  await processingIdle(s.ctx);
};

beforeAll(async () => {
  s = await startServer();
  call = api(s);
  org = (await call('GET', '/v1/orgs')).items[0].id;
  await putSpec('pets', PETS);
  const a = await spaceWith(s, org, 'Docs', [
    page('a', 'Guide', PAGE),
    page('b', 'Plain', 'No operation here.'),
    page('c', 'Missing', `Intro.\n\n${BLOCK('nope', '/x', 'get')}\n\n${BLOCK('pets', '/nowhere', 'get')}\n\nOutro.\n`),
  ]);
  spaceId = a.space.id;
  const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Inline Site', spaces: [a.space.id] });
  base = new URL((await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published).pathname;
}, 60_000);
afterAll(() => s?.stop());

describe('an openapi-operation block on a published page', () => {
  it('draws the operation in place: method and path, parameters, body, responses, code samples, Test it', { timeout: 60_000 }, async () => {
    const r = await get(s, `${base}/guide`);
    expect(r.status).toBe(200);
    const main = mainOf(r.doc);
    const ops = byClass(main, 'api-inline');
    expect(ops.map((o) => textOf(byClass(o, 'endpoint')[0]))).toEqual(['GET /pets/{petId}', 'POST /pets']);
    const [get1, post] = ops.map(textOf) as [string, string];
    expect(get1).toContain('Get a pet');
    expect(get1).toContain('Path parameters');
    expect(get1).toContain('The pet id');
    expect(get1).toContain('404');
    expect(get1).toContain("--url 'https://api.pets.test/v1/pets/{petId}'");
    expect(get1).toContain('import requests');
    expect(post).toContain('Request body');
    expect(post).toContain('client.CreatePet(ctx, pet)');
    // In the page's order, the page's own text around it; the tags are not shown.
    const text = textOf(main);
    expect(text.indexOf('Before the operation.')).toBeLessThan(text.indexOf('GET /pets/{petId}'));
    expect(text.indexOf('GET /pets/{petId}')).toBeLessThan(text.indexOf('Between'));
    expect(text.indexOf('Between')).toBeLessThan(text.indexOf('POST /pets'));
    expect(r.text).not.toContain('openapi-operation');
    // Test it: one form per operation; the outline lists each operation where it stands.
    expect(byClass(main, 'try-it').map((f) => attrOf(f, 'data-method'))).toEqual(['get', 'post']);
    const outline = all(r.doc, (n) => attrOf(n, 'aria-label') === 'On this page')[0];
    expect(byTag(outline, 'a').map((a) => textOf(a).trim())).toEqual(['Get a pet', 'Between', 'Create a pet']);
    // Ids are unique on the page.
    const ids = all(r.doc, (n) => attrOf(n, 'id') !== undefined).map((n) => attrOf(n, 'id'));
    expect(new Set(ids).size).toBe(ids.length);
    // The API stylesheet comes with it.
    expect(r.text).toContain('.endpoint{');
  });

  it('the CSP lets that page connect to the spec servers (cached too); other pages keep connect-src self', async () => {
    for (let i = 0; i < 2; i++)
      expect((await get(s, `${base}/guide`)).headers.get('content-security-policy')).toContain("connect-src 'self' https://api.pets.test;");
    expect((await get(s, `${base}/plain`)).headers.get('content-security-policy')).toContain("connect-src 'self';");
    expect((await get(s, `${base}/missing`)).headers.get('content-security-policy')).toContain("connect-src 'self';");
  });

  it('deeper schema levels of an inline operation load from the page (?part=o<block>/...)', async () => {
    const r = await get(s, `${base}/guide`);
    const lazy = all(byClass(mainOf(r.doc), 'api-inline')[0], (n) => n.tagName === 'details' && attrOf(n, 'data-part'));
    const owner = lazy.find((n) => /p\.owner$/.test(decodeURIComponent(attrOf(n, 'data-part'))))!;
    expect(decodeURIComponent(attrOf(owner, 'data-part'))).toMatch(/^\?part=o0\/res\/200\//);
    const part = await get(s, `${base}/guide${attrOf(owner, 'data-part')}`);
    expect(part.status).toBe(200);
    expect(textOf(byClass(part.doc, 'api-part')[0])).toContain('address');
    expect(part.text).toContain('<meta name="robots" content="noindex">');
    expect((await get(s, `${base}/guide?part=o9/res/200/x`)).status).toBe(404);
  });

  it('sanitizes HTML in the spec descriptions like page markdown', async () => {
    const r = await get(s, `${base}/guide`);
    const main = mainOf(r.doc);
    expect(byTag(main, 'script')).toEqual([]);
    expect(all(main, (n) => (n.attrs ?? []).some((a: any) => /^on/i.test(a.name)))).toEqual([]);
    expect(all(main, (n) => /javascript:/i.test(attrOf(n, 'href') ?? ''))).toEqual([]);
    expect(r.text).not.toContain('onmouseover');
    expect(r.text).not.toContain('<script>alert');
  });

  it('a missing spec or operation draws nothing on the site, a notice in the preview', { timeout: 90_000 }, async () => {
    const r = await get(s, `${base}/missing`);
    expect(r.status).toBe(200);
    const text = textOf(mainOf(r.doc));
    expect(text).toContain('Intro.');
    expect(text).toContain('Outro.');
    expect(byClass(mainOf(r.doc), 'api-missing')).toEqual([]);
    expect(byClass(mainOf(r.doc), 'api-inline')).toEqual([]);
    expect(r.text).not.toContain('openapi-operation');
    expect(r.text).not.toContain('.endpoint{');
    // The preview (urls.app) for the people editing says what is wrong.
    const login = await fetch(`${s.url}/o/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.url },
      body: new URLSearchParams({ token: s.token, next: '/o' }),
    });
    const session = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const pages = (await call('GET', `/v1/spaces/${spaceId}/content`)).pages as any[];
    const missing = pages.find((p) => p.title === 'Missing');
    const preview = await get(s, new URL((await call('GET', `/v1/spaces/${spaceId}/content/page/${missing.id}`)).urls.app).pathname, session);
    expect(preview.status).toBe(200);
    const notices = byClass(preview.doc, 'api-missing').map((n) => textOf(n));
    expect(notices).toEqual([
      'OpenAPI operation not shown: GET /x of spec nope: the organization has no OpenAPI spec of that slug.',
      'OpenAPI operation not shown: GET /nowhere of spec pets: the spec has no operation GET /nowhere.',
    ]);
    // A found operation is drawn in the preview too.
    const guide = pages.find((p) => p.title === 'Guide');
    const gp = await get(s, new URL((await call('GET', `/v1/spaces/${spaceId}/content/page/${guide.id}`)).urls.app).pathname, session);
    expect(byClass(gp.doc, 'api-inline').map((o) => textOf(byClass(o, 'endpoint')[0]))).toEqual(['GET /pets/{petId}', 'POST /pets']);
  });

  it('.md, llms.txt and llms-full.txt include the operations', async () => {
    const md = await get(s, `${base}/guide.md`);
    expect(md.text).toContain('Before the operation.');
    expect(md.text).toContain('## Get a pet');
    expect(md.text).toContain('`GET /pets/{petId}`');
    expect(md.text).toContain('`petId` (path, integer, required): The pet id');
    expect(md.text).toContain('## Create a pet');
    expect(md.text).not.toContain('openapi-operation');
    const missing = await get(s, `${base}/missing.md`);
    expect(missing.text).toBe('# Missing\n\nIntro.\n\n\n\n\n\nOutro.\n');
    const llms = await get(s, `${base}/llms.txt`);
    expect(llms.text).toContain(`${base}/guide.md)\n  - \`GET /pets/{petId}\`: Get a pet\n  - \`POST /pets\`: Create a pet\n`);
    const full = await get(s, `${base}/llms-full.txt`);
    expect(full.text).toContain('`POST /pets`');
  });

  it("follows the spec's latest processed version; the page API gives the block as a node", async () => {
    const next = structuredClone(PETS) as any;
    next.paths['/pets/{petId}'].get.summary = 'Fetch a pet';
    await putSpec('pets', next);
    expect(byClass(mainOf((await get(s, `${base}/guide`)).doc), 'api-inline').map((o) => textOf(byTag(o, 'h2')[0]))).toEqual(['Fetch a pet', 'Create a pet']);
    await putSpec('pets', PETS);
    const pages = (await call('GET', `/v1/spaces/${spaceId}/content`)).pages as any[];
    const guide = pages.find((p) => p.title === 'Guide');
    const doc = await call('GET', `/v1/spaces/${spaceId}/content/page/${guide.id}?format=document`);
    expect(doc.document.nodes.filter((n: any) => n.type === 'openapi-operation').map((n: any) => n.data)).toEqual([
      { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets/{petId}', method: 'get' },
      { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets', method: 'post' },
    ]);
  });

  it('a page written as a Document with the node is stored as the block and drawn', async () => {
    await edit(s, spaceId, [
      {
        operation: 'insert_page',
        title: 'From a document',
        document: {
          document: {
            object: 'document',
            data: {},
            nodes: [
              { object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hi.', marks: [] }] }] },
              { object: 'block', type: 'openapi-operation', isVoid: true, data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/orders', method: 'get' } },
            ],
          },
        },
      },
    ]);
    const pages = (await call('GET', `/v1/spaces/${spaceId}/content`)).pages as any[];
    const made = pages.find((p) => p.title === 'From a document');
    const stored = await call('GET', `/v1/spaces/${spaceId}/content/page/${made.id}?format=markdown`);
    expect(stored.markdown).toBe(`Hi.\n\n${BLOCK('pets', '/orders', 'get', false)}\n`);
    const r = await get(s, `${base}/from-a-document`);
    expect(byClass(mainOf(r.doc), 'api-inline').map((o) => textOf(byClass(o, 'endpoint')[0]))).toEqual(['GET /orders']);
  });
});

describe('docs content push then pull', () => {
  it('keeps the block byte for byte, with or without the link line', { timeout: 120_000 }, async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const space = (await docs(['spaces', 'create', '--title', 'Round trip', '--json'], env)).json.id as string;
    const dir = tempDir('docs-inline-push-');
    const files: Record<string, string> = {
      'README.md': '# Home\n\nWelcome.\n',
      'api.md': `# API\n\nOne operation:\n\n${BLOCK('pets', '/pets/{petId}', 'get')}\n\nAnd another:\n\n${BLOCK('pets', '/pets', 'post', false)}\n`,
    };
    for (const [k, v] of Object.entries(files)) writeFileSync(join(dir, k), v);
    const pushed = await docs(['content', 'push', dir, '--space', space, '--merge'], env);
    expect(pushed.status, pushed.stderr).toBe(0);
    const out = join(tempDir('docs-inline-pull-'), 'out');
    const pulled = await docs(['content', 'pull', out, '--space', space], env);
    expect(pulled.status, pulled.stderr).toBe(0);
    for (const [k, v] of Object.entries(files)) expect(readFileSync(join(out, k), 'utf8'), k).toBe(v);
  });
});
