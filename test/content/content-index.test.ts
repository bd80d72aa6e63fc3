import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { spansOf } from '../../src/content/link-index.js';
import { loadParser } from '../../src/content/link-refs.js';
import type { PageContentRecord } from '../../src/content/model.js';
import { LocalTransport } from '../../src/transport/local.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { PageContents } from '../../src/content/tables.js';

// Issue 28 item 2: a page body carries where its links are, computed once when it is written
// and bound to the SHA-256 of its markdown; GET /_docs/content-index gives it (with each file's
// SHA-256) to `docs content push`, in-process and over HTTP. An index that does not belong to
// the markdown (missing, of another text, malformed) is recomputed, never trusted.

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
let server: TestServer;
let space: string;
let org: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  org = (await server.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await server.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Index' } })).body.id;
  const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'seed' } })).body.id;
  const res = await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, {
    body: {
      changes: [
        {
          operation: 'insert_files',
          files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: Buffer.from('png bytes').toString('base64') }],
        },
        {
          operation: 'insert_page',
          ref: 'a',
          title: 'A',
          slug: 'a',
          document: { markdown: 'See [B](./b.md#x), [site](https://example.com), [top](#top) and ![logo](./logo.png).\n\n`[not](./b.md)`\n' },
        },
        { operation: 'insert_page', ref: 'b', title: 'B', slug: 'b', document: { markdown: 'Back to [A](a.md) or [nowhere](./gone.md).\n' } },
      ],
    },
  });
  expect(res.status).toBe(200);
  for (const c of res.body.changes) if (c.ref) ids[c.ref] = c.page.id;
  expect((await server.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).status).toBe(200);
});
afterAll(() => server.stop());

const rowOf = (page: string): Promise<PageContentRecord> =>
  server.ctx.store.read((tx) => tx.find(PageContents, 'space', space).find((r) => r.markdown.includes(page === ids.a! ? 'See [B]' : 'Back to'))!);

describe('the link index of a page body', () => {
  it('is stored when the body is written: the offsets of its page, file and relative links in the stored markdown, bound to its SHA-256', async () => {
    const a = await rowOf(ids.a!);
    expect(a.links?.sha).toBe(sha(a.markdown));
    const urls = [];
    for (let i = 0; i < a.links!.spans.length; i += 2) urls.push(a.markdown.slice(a.links!.spans[i], a.links!.spans[i + 1]));
    // Links to pages and files in their stored form; not the external link, the anchor or the code span.
    expect(urls).toEqual([`/pages/${ids.b}#x`, expect.stringMatching(/^\/files\//)]);
    // The same offsets a parse of the stored markdown finds.
    expect(a.links!.spans).toEqual(spansOf(await loadParser(), a.markdown));
    const b = await rowOf(ids.b!);
    const bUrls = [];
    for (let i = 0; i < b.links!.spans.length; i += 2) bUrls.push(b.markdown.slice(b.links!.spans[i], b.links!.spans[i + 1]));
    expect(bUrls).toEqual([`/pages/${ids.a}`, './gone.md']);
  });

  it('GET /_docs/content-index: over HTTP and in-process alike, each page its hash and offsets, each file its SHA-256', async () => {
    const http = await server.docs('GET', `/_docs/content-index?space=${space}`);
    expect(http.status).toBe(200);
    const a = await rowOf(ids.a!);
    expect(http.body.pages[ids.a!]).toEqual({ sha: sha(a.markdown), links: a.links!.spans });
    expect(Object.values(http.body.files)).toEqual([sha('png bytes')]);
    const local = await LocalTransport.as(server.ctx, server.token, undefined, 'test');
    expect((await local.docs('GET', '/_docs/content-index', { query: { space } })).body).toEqual(http.body);
    // A change request's content too (by number).
    const cr = (await server.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'later' } })).body;
    expect((await server.docs('GET', `/_docs/content-index?space=${space}&changeRequest=${cr.number}`)).body.pages).toEqual(http.body.pages);
  });

  it('an index that is missing, of another text or malformed is recomputed from the markdown, never trusted', async () => {
    const parse = await loadParser();
    const a = await rowOf(ids.a!);
    const want = spansOf(parse, a.markdown);
    const tamper = async (links: unknown) => {
      await server.ctx.store.write((tx) => void tx.put(PageContents, { ...a, links } as PageContentRecord));
      return (await server.docs('GET', `/_docs/content-index?space=${space}`)).body.pages[ids.a!];
    };
    expect(await tamper(undefined)).toEqual({ sha: sha(a.markdown), links: want });
    expect(await tamper({ sha: sha('another text'), spans: [0, 3] })).toEqual({ sha: sha(a.markdown), links: want });
    expect(await tamper({ sha: sha(a.markdown), spans: [0, 3] })).toEqual({ sha: sha(a.markdown), links: want }); // "See": not a link URL
    expect(await tamper({ sha: sha(a.markdown), spans: [5, 2, 9] })).toEqual({ sha: sha(a.markdown), links: want });
    expect(await tamper({ sha: sha(a.markdown), spans: 'x' })).toEqual({ sha: sha(a.markdown), links: want });
    await server.ctx.store.write((tx) => void tx.put(PageContents, a));
  });

  it('answers only a caller who sees the space; bad input is a 400', async () => {
    const stranger = await addUser(server.ctx);
    expect((await server.docs('GET', `/_docs/content-index?space=${space}`, { token: stranger.token })).status).toBe(404);
    expect((await server.docs('GET', `/_docs/content-index?space=${space}`, { token: null })).status).toBe(401);
    expect((await server.docs('GET', '/_docs/content-index')).status).toBe(400);
    expect((await server.docs('POST', `/_docs/content-index?space=${space}`)).status).toBe(405);
  });
});
