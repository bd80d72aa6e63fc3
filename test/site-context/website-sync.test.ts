import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlToMarkdown, readPage } from '../../src/site-context/connectors/html-text.js';
import { CRAWL, USER_AGENT, clip } from '../../src/site-context/connectors/website.js';
import { MAX_BODY_BYTES, recordsOfSite } from '../../src/site-context/records.js';
import { withServer } from '../helpers/loopback.js';
import { startServer, type TestServer } from '../helpers/server.js';

// builtin:website (docs/manual/site-context.md#connections-and-records): a sync crawls the page
// and the same-origin pages it links to through the outbound guard, bounded, and replaces the
// connection's records in one write; a failure marks the connection failed with its reason and
// changes no record. The sites are loopback servers, reached with DOCS_FETCH_ALLOW_PRIVATE=1
// (process.env is put back after the file: test/helpers/leaks.ts).

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s?.stop());

const html = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="About ${title}"><style>body{color:red}</style></head><body><nav><a href="/">Home</a></nav><main>${body}</main><script>alert("x")</script></body></html>`;

/** A site of pages by path; `hits` counts the requests per path. */
function site(pages: Record<string, string | number | [number, string, string]>) {
  const hits: Record<string, number> = {};
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url!, 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    const p = pages[path];
    if (p === undefined) return res.writeHead(404).end('not found');
    if (typeof p === 'number') return res.writeHead(p).end('status');
    if (Array.isArray(p)) return res.writeHead(p[0], { 'content-type': p[1] }).end(p[2]);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(p);
  };
  return { hits, handler };
}

async function websiteConnection(url: string) {
  const made = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'Crawled' } })).body;
  const o = `/v1/orgs/${org}/sites/${made.id}`;
  const conn = await s.api('POST', `${o}/context-connections`, { body: { connector: 'builtin:website', setupSettings: { url } } });
  expect(conn.status, JSON.stringify(conn.body)).toBe(201);
  return { o, siteId: made.id as string, at: `${o}/context-connections/${conn.body.id}`, id: conn.body.id as string };
}
const titles = async (o: string) => (await s.api('GET', `${o}/context-records?limit=1000`)).body.items.map((r: any) => r.title).sort();

describe('builtin:website sync', () => {
  it('crawls the page and its same-origin links into document records, and a later sync replaces them', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const pages: Record<string, any> = {
      '/docs/': html(
        'Start',
        '<h1>Welcome</h1><p>Install the <code>zebracorn</code> tool &amp; run it.</p><ul><li>One</li><li>Two</li></ul><a href="guide">Guide</a> <a href="/docs/missing">Gone</a> <a href="https://elsewhere.example.com/x">Out</a> <a href="/files/a.pdf">PDF</a> <a href="mailto:x@example.com">Mail</a> <a href="guide#part">Again</a>',
      ),
      '/docs/guide': html('Guide', '<h2>Setup</h2><pre><code>npm i &lt;pkg&gt;</code></pre><a href="/docs/deep">Deep</a>'),
      '/docs/deep': html('Deep', '<p>Deep page.</p>'),
      '/files/a.pdf': [200, 'application/pdf', '%PDF-1.4'],
    };
    const { hits, handler } = site(pages);
    await withServer(handler, async (url) => {
      const { o, siteId, at } = await websiteConnection(`${url}/docs/`);
      expect((await s.api('POST', `${at}/test`)).body).toEqual({ object: 'context-connection-test-result', success: true });
      const synced = await s.api('POST', `${at}/sync`);
      expect(synced.status, JSON.stringify(synced.body)).toBe(204);
      const conn = (await s.api('GET', at)).body;
      expect(conn).toMatchObject({ status: 'succeeded', records: 3 });
      expect(conn.failureReason).toBeUndefined();
      expect(await titles(o)).toEqual(['Deep', 'Guide', 'Start']);
      const items = (await s.api('GET', `${o}/context-records`)).body.items;
      const start = items.find((r: any) => r.title === 'Start');
      expect(start).toMatchObject({ type: 'document', connector: 'builtin:website', description: 'About Start', urls: { source: `${url}/docs/` } });
      // The page's text as markdown: no script, style or navigation; entities decoded.
      const rows = await s.ctx.store.read((tx) => recordsOfSite(tx, siteId));
      const body = rows.find((r) => r.title === 'Start')!.body;
      expect(body).toContain('# Welcome');
      expect(body).toContain('Install the `zebracorn` tool & run it.');
      expect(body).toContain('- One\n- Two');
      expect(body).not.toContain('alert');
      expect(body).not.toContain('color:red');
      expect(rows.find((r) => r.title === 'Guide')!.body).toContain('```\nnpm i <pkg>\n```');
      // Each page once (the fragment is the same page); the other origin never; the 404 left out.
      expect(hits['/docs/guide']).toBe(1);
      expect(hits['/docs/missing']).toBe(1);

      // The site changes: a page gone, one changed. The kept page keeps its record id.
      pages['/docs/guide'] = html('Guide v2', '<p>No more deep link.</p>');
      expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
      expect(await titles(o)).toEqual(['Guide v2', 'Start']);
      expect((await s.api('GET', `${o}/context-records`)).body.items.find((r: any) => r.title === 'Start').id).toBe(start.id);
      expect((await s.api('GET', at)).body.records).toBe(2);
    });
  });

  it('a failure marks the connection failed with its reason and changes no record', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const pages: Record<string, any> = { '/': html('Home', '<p>Home</p><a href="/a">A</a>'), '/a': html('A', '<p>A</p>') };
    const { handler } = site(pages);
    await withServer(handler, async (url) => {
      const { o, at } = await websiteConnection(`${url}/`);
      expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
      expect(await titles(o)).toEqual(['A', 'Home']);
      for (const [status, reason] of [
        [503, 'upstream_unavailable'],
        [429, 'rate_limited'],
        [401, 'authentication'],
      ] as const) {
        pages['/'] = status;
        expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
        const conn = (await s.api('GET', at)).body;
        expect(conn).toMatchObject({ status: 'failed', failureReason: reason, records: 2 });
        expect(conn.failureMessage).toContain(`HTTP ${status}`);
        expect(await titles(o)).toEqual(['A', 'Home']);
      }
      // A linked page's 5xx fails the whole sync too (all or nothing: no half a site).
      pages['/'] = html('Home 2', '<p>Home</p><a href="/a">A</a>');
      pages['/a'] = 500;
      await s.api('POST', `${at}/sync`);
      expect((await s.api('GET', at)).body).toMatchObject({ status: 'failed', failureReason: 'upstream_unavailable' });
      expect(await titles(o)).toEqual(['A', 'Home']);
      // Not a page: misconfigured.
      pages['/'] = [200, 'application/octet-stream', 'bytes'];
      await s.api('POST', `${at}/sync`);
      expect((await s.api('GET', at)).body).toMatchObject({ status: 'failed', failureReason: 'misconfigured' });
      // Back: succeeded, the failure cleared.
      pages['/'] = html('Home 3', '<p>Home</p>');
      await s.api('POST', `${at}/sync`);
      const ok = (await s.api('GET', at)).body;
      expect(ok.status).toBe('succeeded');
      expect(ok.failureMessage).toBeUndefined();
      expect(await titles(o)).toEqual(['Home 3']);
    });
    // The server is gone: unreachable, and test says so without changing anything.
    const gone = await websiteConnection('http://127.0.0.1:9/');
    const tested = (await s.api('POST', `${gone.at}/test`)).body;
    expect(tested.success).toBe(false);
    expect(tested.error).toBeTruthy();
    expect((await s.api('GET', gone.at)).body.status).toBe('pending');
    await s.api('POST', `${gone.at}/sync`);
    expect((await s.api('GET', gone.at)).body).toMatchObject({ status: 'failed', failureReason: 'upstream_unavailable' });
    // Two writes, two audit events of one call: marked syncing, then the outcome.
    const events = (await s.api('GET', `/v1/orgs/${org}/audit-events?limit=50`)).body.items.filter(
      (e: any) => e.action === 'site-context-connection.synced' && JSON.stringify(e).includes(gone.id),
    );
    expect(events.length).toBe(2);
  });

  it("follows links only where the site's robots.txt allows (RFC 9309): our agent's group, then *; a 5xx disallows all", async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const pages: Record<string, any> = {
      '/': html('Home', '<p>Home</p><a href="/guide">Guide</a> <a href="/private/x">Private</a> <a href="/drafts/y">Draft</a> <a href="/drafts/ok">Ok</a>'),
      '/guide': html('Guide', '<p>Guide</p>'),
      '/private/x': html('Private', '<p>Private</p>'),
      '/drafts/y': html('Draft', '<p>Draft</p>'),
      '/drafts/ok': html('Ok', '<p>Ok</p>'),
      '/robots.txt': [
        200,
        'text/plain',
        `User-agent: *\nDisallow: /private/\n\nUser-agent: ${USER_AGENT}\nDisallow: /drafts/\nAllow: /drafts/ok\nDisallow: /private/\n`,
      ],
    };
    const { hits, handler } = site(pages);
    await withServer(handler, async (url) => {
      const { o, at } = await websiteConnection(`${url}/`);
      expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
      expect(await titles(o)).toEqual(['Guide', 'Home', 'Ok']);
      expect(hits['/robots.txt']).toBe(1);
      expect(hits['/private/x']).toBeUndefined();
      expect(hits['/drafts/y']).toBeUndefined();

      // The site's robots.txt fails: nothing but the page someone named is read.
      pages['/robots.txt'] = 503;
      expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
      expect((await s.api('GET', at)).body).toMatchObject({ status: 'succeeded', records: 1 });
      expect(await titles(o)).toEqual(['Home']);
      expect(hits['/guide']).toBe(1);

      // No robots.txt at all (404): every same-origin page may be read.
      delete pages['/robots.txt'];
      expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
      expect(await titles(o)).toEqual(['Draft', 'Guide', 'Home', 'Ok', 'Private']);
    });
  });

  it('never fetches a private address without DOCS_FETCH_ALLOW_PRIVATE: the sync fails as misconfigured', async () => {
    const { hits, handler } = site({ '/': html('Home', '<p>Secret</p>') });
    await withServer(handler, async (url) => {
      process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
      const { o, at } = await websiteConnection(`${url}/`);
      delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
      expect((await s.api('POST', `${at}/sync`)).status).toBe(204);
      const conn = (await s.api('GET', at)).body;
      expect(conn).toMatchObject({ status: 'failed', failureReason: 'misconfigured' });
      expect(conn.failureMessage).toContain('loopback address');
      const tested = (await s.api('POST', `${at}/test`)).body;
      expect(tested.success).toBe(false);
      expect(tested.error).toContain('DOCS_FETCH_ALLOW_PRIVATE=1 allows them');
      expect(hits).toEqual({});
      expect(await titles(o)).toEqual([]);
    });
  });

  it('is syncing while it runs: a second sync of the connection is refused, the first one ends it', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await withServer(
      (_req, res) => {
        void held.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end(html('Slow', '<p>Slow</p>')));
      },
      async (url) => {
        const { at } = await websiteConnection(`${url}/`);
        const first = s.api('POST', `${at}/sync`);
        for (let i = 0; i < 100 && (await s.api('GET', at)).body.status !== 'syncing'; i++) await new Promise((r) => setTimeout(r, 20));
        expect((await s.api('GET', at)).body.status).toBe('syncing');
        const second = await s.api('POST', `${at}/sync`);
        expect(second.status).toBe(400);
        expect(second.body.error.message).toContain('is being synced since');
        release();
        expect((await first).status).toBe(204);
        expect((await s.api('GET', at)).body).toMatchObject({ status: 'succeeded', records: 1 });
      },
    );
  });

  it(`reads at most ${CRAWL.pages} pages`, async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const links = Array.from({ length: 80 }, (_, i) => `<a href="/p${i}">P${i}</a>`).join(' ');
    const pages: Record<string, string> = { '/': html('Index', links) };
    for (let i = 0; i < 80; i++) pages[`/p${i}`] = html(`P${i}`, `<p>Page ${i}</p>`);
    const { hits, handler } = site(pages);
    await withServer(handler, async (url) => {
      const { at } = await websiteConnection(`${url}/`);
      await s.api('POST', `${at}/sync`);
      expect((await s.api('GET', at)).body).toMatchObject({ status: 'succeeded', records: CRAWL.pages });
      expect(Object.values(hits).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(CRAWL.pages + CRAWL.concurrency);
    });
  });
});

describe('html to markdown', () => {
  it('keeps headings, paragraphs, lists and code; drops scripts, styles, comments and navigation', () => {
    const md = htmlToMarkdown(
      '<html><body><nav>Menu</nav><!-- hidden --><h2>Title &#x26; more</h2><p>One<br>two</p><ol><li>a</li><li>b</li></ol><pre>x &lt; y</pre><footer>Foot</footer></body></html>',
    );
    expect(md).toBe('## Title & more\n\nOne\ntwo\n\n- a\n- b\n\n```\nx < y\n```');
  });
});

describe('html to markdown on hostile pages', () => {
  // Measured on this machine: 40 to 310 ms each.
  it('stays linear: 2 MB of unclosed tags, lone brackets, unclosed scripts or headings read in well under a second each', () => {
    for (const page of [
      '<a'.repeat(1_000_000),
      '< '.repeat(1_000_000),
      '<script>'.repeat(250_000),
      '<h1>'.repeat(500_000),
      '<!--'.repeat(500_000),
      '<p>word </p>'.repeat(170_000),
    ]) {
      const started = performance.now();
      const read = readPage(page);
      expect(performance.now() - started, page.slice(0, 10)).toBeLessThan(1500);
      expect(read.body.length).toBeLessThan(500_000);
    }
  });

  it('cuts a long page to what a record holds, at a character', () => {
    expect(Buffer.byteLength(clip('€'.repeat(50_000)))).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(clip('€'.repeat(50_000)).endsWith('€')).toBe(true);
    expect(clip('short')).toBe('short');
  });
});
