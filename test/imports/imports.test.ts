import { createServer, type Server } from 'node:http';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsIdle } from '../../src/imports/runner.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Import runs (docs/manual/imports-and-git.md): archives uploaded as files of the target, a URL
// fetched through the outbound guard, the four layouts, cancel mid-run, and the bad input.

let s: TestServer;
let org: string;
let hang: Server;
let hangUrl: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  // A loopback server that never answers: a URL import stays in-progress until cancelled.
  hang = createServer(() => {}).listen(0, '127.0.0.1');
  await new Promise((r) => hang.once('listening', r));
  hangUrl = `http://127.0.0.1:${(hang.address() as any).port}/site.zip`;
});
afterAll(async () => {
  hang.closeAllConnections();
  await new Promise((r) => hang.close(r));
  await s.stop();
});

const zip = (files: Record<string, string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));

/** A tar with one entry of the given type flag (`2` a symbolic link) and name. */
function tar(entries: { name: string; type?: string; body?: string }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100);
    h.write('0000644\0', 100);
    const body = Buffer.from(e.body ?? '');
    h.write(body.length.toString(8).padStart(11, '0') + '\0', 124);
    h.write(' '.repeat(8), 148);
    h.write(e.type ?? '0', 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    blocks.push(h, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

async function spaceWithArchive(title: string, name: string, bytes: Buffer) {
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title } })).body.id;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Upload' } })).body;
  const up = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    body: { changes: [{ operation: 'insert_files', files: [{ name, contentType: 'application/zip', base64: bytes.toString('base64') }] }] },
  });
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  return { space, cr: cr.id as string, file: up.body.insertedFiles[0].id as string };
}

async function waitDone(id: string) {
  await importsIdle(s.ctx);
  const r = await s.api('GET', `/v1/org/${org}/imports/${id}`);
  expect(r.status).toBe(200);
  return r.body;
}

const pagesOf = async (space: string, cr: string) => (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr}/content`)).body.pages;
const titles = (pages: any[]): any[] => pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages)] : p.title));

describe('import runs from archives, each layout', () => {
  const layouts: [string, Record<string, string>, any[]][] = [
    [
      'gitbook',
      {
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n',
        'README.md': '# Welcome\n\nHi.\n',
        'guide/README.md': '# Guide\n',
        'guide/setup.md': '# Setup\n\nRun it.\n',
      },
      ['Welcome', ['Guide', ['Setup']]],
    ],
    [
      'docusaurus',
      {
        'sidebars.json': JSON.stringify({ docs: ['intro', { type: 'category', label: 'Tutorial', items: ['tutorial/basics'] }] }),
        'docs/intro.md': '---\nsidebar_position: 1\n---\n# Intro\n\nHello.\n',
        'docs/tutorial/basics.mdx': "import X from '@site/x';\n\n# Basics\n\nText.\n",
      },
      ['Intro', ['Tutorial', ['Basics']]],
    ],
    [
      'mkdocs',
      {
        'mkdocs.yml': 'site_name: X\nnav:\n  - Home: index.md\n  - User guide:\n      - Install: guide/install.md\n',
        'docs/index.md': '# Home\n',
        'docs/guide/install.md': '# Install\n\npip.\n',
      },
      ['Home', ['User guide', ['Install']]],
    ],
    [
      'mintlify',
      {
        'mint.json': JSON.stringify({ name: 'X', navigation: [{ group: 'Get started', pages: ['introduction', 'quickstart'] }] }),
        'introduction.mdx': '---\ntitle: Introduction\n---\nWelcome.\n',
        'quickstart.mdx': '---\ntitle: Quickstart\n---\nGo.\n',
      },
      [['Get started', ['Introduction', 'Quickstart']]],
    ],
  ];
  for (const [kind, files, want] of layouts) {
    it(`${kind}: a change request with the pages in the navigation's order`, async () => {
      const { space, cr, file } = await spaceWithArchive(`Import ${kind}`, `${kind}.zip`, zip(files));
      const started = await s.api('POST', `/v1/org/${org}/imports`, {
        body: { source: { type: 'file', files: [file] }, target: { space, changeRequest: cr } },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      expect(started.body).toMatchObject({ object: 'import-run', status: 'pending', target: { space, changeRequest: cr } });
      const done = await waitDone(started.body.id);
      expect(done.status, done.reason).toBe('completed');
      expect(done.pages.length).toBeGreaterThan(1);
      expect(titles(await pagesOf(space, cr))).toEqual(want);
    });
  }

  it('a nested category becomes a page holding its pages (a group only at the top level, as both specs have it)', async () => {
    const files = {
      'sidebars.json': JSON.stringify({
        docs: [{ type: 'category', label: 'Guides', items: ['intro', { type: 'category', label: 'Advanced', items: ['deep'] }] }],
      }),
      'docs/intro.md': '# Intro\n',
      'docs/deep.md': '# Deep\n\nText.\n',
    };
    const { space, cr, file } = await spaceWithArchive('Import nested', 'nested.zip', zip(files));
    const started = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: [file] }, target: { space, changeRequest: cr } } });
    const done = await waitDone(started.body.id);
    expect(done.status, done.reason).toBe('completed');
    const pages = await pagesOf(space, cr);
    expect(titles(pages)).toEqual([['Guides', ['Intro', ['Advanced', ['Deep']]]]]);
    expect(pages[0].type).toBe('group');
    expect(pages[0].pages.map((p: any) => p.type)).toEqual(['document', 'document']);
  });

  it('a tar.gz into a new change request; list filters by space and status', async () => {
    const { gzipSync } = await import('node:zlib');
    const t = gzipSync(
      tar([
        { name: 'site/README.md', body: '# Home\n' },
        { name: 'site/faq.md', body: '# FAQ\n' },
      ]),
    );
    const { space, file } = await spaceWithArchive('Import tgz', 'site.tar.gz', t);
    // The file is in the change request; merge it so the space has it, then import without a change request.
    const crs = (await s.api('GET', `/v1/spaces/${space}/change-requests`)).body.items;
    expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${crs[0].id}/merge`)).status).toBe(200);
    const started = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: [file] }, target: { space } } });
    expect(started.status).toBe(201);
    const done = await waitDone(started.body.id);
    expect(done.status, done.reason).toBe('completed');
    const list = await s.api('GET', `/v1/org/${org}/imports?space=${space}&status=completed`);
    expect(list.body.items.map((r: any) => r.id)).toEqual([started.body.id]);
    expect((await s.api('GET', `/v1/org/${org}/imports?space=${space}&status=active`)).body.items).toEqual([]);
  });
});

describe('cancel', () => {
  it('a run fetching a URL is cancelled mid-run: 200 (0.202.0), cancelled, nothing written', async () => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Cancel me' } })).body.id;
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    const started = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'website', url: hangUrl }, target: { space } } });
    expect(started.status).toBe(201);
    for (let i = 0; i < 50 && (await s.api('GET', `/v1/org/${org}/imports/${started.body.id}`)).body.status !== 'in-progress'; i++)
      await new Promise((r) => setTimeout(r, 20));
    const c = await s.api('POST', `/v1/org/${org}/imports/${started.body.id}/cancel`);
    expect(c.status).toBe(200);
    expect(c.body.status).toBe('cancelled');
    const done = await waitDone(started.body.id);
    expect(done.status).toBe('cancelled');
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests`)).body.items).toEqual([]);
    const again = await s.api('POST', `/v1/org/${org}/imports/${started.body.id}/cancel`);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain('already cancelled');
  });
});

describe('bad input: 400, no run created', () => {
  const cases: [string, Buffer, string][] = [
    ['zip with ..', zip({ '../evil.md': '# Evil\n' }), 'a ".." segment'],
    ['zip with an absolute path', zip({ '/etc/evil.md': '# Evil\n' }), 'an absolute path'],
    [
      'tar with a symbolic link',
      tar([
        { name: 'README.md', body: '# A\n' },
        { name: 'link.md', type: '2' },
      ]),
      'symbolic link',
    ],
    ['tar with ..', tar([{ name: 'a/../../x.md', body: 'x' }]), 'a ".." segment'],
    ['tar bomb (too many entries)', tar(Array.from({ length: 2001 }, (_, i) => ({ name: `p${i}.md`, body: '' }))), 'more than 2000 entries'],
    ['not an archive', Buffer.from('just bytes'), 'not a zip, tar or tar.gz'],
  ];
  for (const [label, bytes, message] of cases) {
    it(label, async () => {
      const { space, cr, file } = await spaceWithArchive(`Bad ${label}`.slice(0, 50), 'bad.zip', bytes);
      const before = (await s.api('GET', `/v1/org/${org}/imports?space=${space}`)).body.items.length;
      const r = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: [file] }, target: { space, changeRequest: cr } } });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(message);
      expect((await s.api('GET', `/v1/org/${org}/imports?space=${space}`)).body.items.length).toBe(before);
    });
  }

  it('a file key that is not a file of the target; a URL the guard refuses', async () => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Bad keys' } })).body.id;
    const r = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: ['nope'] }, target: { space } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('"nope" is not a file of space');
    delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
    const u = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'website', url: 'http://127.0.0.1:9/x.zip' }, target: { space } } });
    expect(u.status).toBe(400);
    expect(u.body.error.message).toContain('127.0.0.1 is a loopback address');
    expect((await s.api('GET', `/v1/org/${org}/imports?space=${space}`)).body.items).toEqual([]);
  });
});
