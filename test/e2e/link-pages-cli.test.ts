import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { writeTree } from '../helpers/docs-folder.js';
import { tempDir, startServer, type TestServer } from '../helpers/server.js';
import { api, byTag, attrOf, get, textOf } from '../published/fixture.js';

// Link pages (docs/manual/docs-as-code.md#link-pages): SUMMARY.md entries whose link is a URL, as
// GitBook's Git Sync writes them (`* [Status page](https://status.example.com)`), become pages of
// type "link" through push, come back byte for byte through pull, are checked and listed by
// --dry-run, and show on the published site as links leaving it.

const SUMMARY = `# Table of contents

* [Introduction](README.md)
* [Status page](https://status.example.com)
* [Guides](guides/README.md)
  * [Setup](guides/setup.md)
  * [Upstream docs](https://example.org/docs/a_(b)?q=1#top)

## Links

* [Support](mailto:help@example.com)
* [Terms of Service](https://policies.example.com/terms)
`;
const FOLDER = {
  'SUMMARY.md': SUMMARY,
  'README.md': '# Introduction\n\nWelcome.\n',
  'guides/README.md': '# Guides\n\nRead on.\n',
  'guides/setup.md': '# Setup\n\nRun it.\n',
};

function readTree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) Object.assign(out, readTree(dir, r));
    else out[r] = readFileSync(join(dir, r), 'latin1');
  }
  return out;
}

async function scenario(env: Record<string, string>, s?: TestServer) {
  const run = async (...args: string[]) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const space = (await run('spaces', 'create', '--title', 'Handbook', '--json')).json.id as string;
  const src = writeTree(FOLDER);

  // Checked first: a link page has no file to find, so nothing is missing.
  expect((await run('content', 'check', src)).stdout).toContain('No problems in ');

  // The dry run lists the link pages as their entries.
  const dry = await run('content', 'push', src, '--space', space, '--merge', '--dry-run');
  expect(dry.stdout).toContain('  added    [Status page](https://status.example.com)\n');
  expect(dry.stdout).toContain('  added    [Support](mailto:help@example.com)\n');
  expect((await run('pages', 'list', space, '--json')).json.pages ?? []).toEqual([]);

  const pushed = (await run('content', 'push', src, '--space', space, '--merge', '--json')).json;
  // 3 pages with files, 4 link pages, the group.
  expect(pushed).toMatchObject({ merged: true, added: 8, updated: 0, deleted: 0 });

  const listed = (await run('pages', 'list', space, '--json')).json.pages as any[];
  const shape = (ps: any[]): unknown[] => ps.map((p) => (p.type === 'link' ? ['link', p.title, p.target] : [p.type, p.title, shape(p.pages ?? [])]));
  expect(shape(listed)).toEqual([
    ['document', 'Introduction', []],
    ['link', 'Status page', { kind: 'url', url: 'https://status.example.com' }],
    [
      'document',
      'Guides',
      [
        ['document', 'Setup', []],
        ['link', 'Upstream docs', { kind: 'url', url: 'https://example.org/docs/a_(b)?q=1#top' }],
      ],
    ],
    [
      'group',
      'Links',
      [
        ['link', 'Support', { kind: 'url', url: 'mailto:help@example.com' }],
        ['link', 'Terms of Service', { kind: 'url', url: 'https://policies.example.com/terms' }],
      ],
    ],
  ]);
  if (s) {
    // The API's answers, link pages included, are checked against both specs by s.api.
    const r = await s.api('GET', `/v1/spaces/${space}/content/pages`);
    expect(r.status).toBe(200);
    expect(r.body.pages[1]).toMatchObject({ type: 'link', kind: 'link', href: 'https://status.example.com' });
  }

  // Pull: the same bytes, SUMMARY.md included; pushing it again changes nothing.
  const out = join(tempDir('docs-links-pull-'), 'out');
  await run('content', 'pull', out, '--space', space);
  expect(readTree(out)).toEqual(readTree(src));
  expect((await run('content', 'push', out, '--space', space)).stdout).toBe(`No change: ${out} matches space ${space}.\n`);

  // A URL changed, a title changed, one removed, one added: updated, added, deleted in place.
  writeFileSync(
    join(out, 'SUMMARY.md'),
    SUMMARY.replace('https://status.example.com', 'https://status.example.net')
      .replace('[Terms of Service]', '[Terms]')
      .replace('* [Support](mailto:help@example.com)\n', '')
      .replace('  * [Setup](guides/setup.md)\n', '  * [Setup](guides/setup.md)\n  * [Changelog](https://example.org/changelog)\n'),
  );
  const dry2 = await run('content', 'push', out, '--space', space, '--merge', '--dry-run', '--json');
  expect(dry2.json.pages).toEqual({
    // Link pages are known by their place among the link pages of their parent: the second of
    // Guides is new, the first and second of the group become one.
    added: ['[Upstream docs](https://example.org/docs/a_(b)?q=1#top)'],
    updated: ['[Status page](https://status.example.net)', '[Changelog](https://example.org/changelog)', '[Terms](https://policies.example.com/terms)'],
    deleted: ['[Terms of Service](https://policies.example.com/terms)'],
  });
  const second = (await run('content', 'push', out, '--space', space, '--merge', '--json')).json;
  expect(second).toMatchObject({ merged: true, added: 1, updated: 3, deleted: 1 });
  const back = join(tempDir('docs-links-pull2-'), 'out');
  await run('content', 'pull', back, '--space', space);
  expect(readTree(back)).toEqual(readTree(out));
  expect((await run('content', 'push', back, '--space', space)).stdout).toBe(`No change: ${back} matches space ${space}.\n`);
  return space;
}

describe('SUMMARY.md entries linking to URLs are link pages: push, pull byte for byte, check, --dry-run', () => {
  it('in-process', { timeout: 180_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_link_pages' });
  });

  it('against a server (--api-url, --token), and the published site shows them as links leaving it', { timeout: 180_000 }, async () => {
    const s = await startServer({ dataDir: tempDir() });
    try {
      const space = await scenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token }, s);
      const call = api(s);
      const org = (await call('GET', '/v1/orgs')).items[0].id;
      const site = await call('POST', `/v1/orgs/${org}/sites`, { title: 'Handbook' });
      await call('POST', `/v1/orgs/${org}/sites/${site.id}/site-spaces`, { spaceId: space });
      const published = (await call('POST', `/v1/orgs/${org}/sites/${site.id}/publish`)).urls.published as string;
      const r = await get(s, published);
      expect(r.status).toBe(200);
      const nav = byTag(r.doc, 'aside')[0];
      const anchors = byTag(nav, 'a').map((a: any) => ({ text: textOf(a).trim(), href: attrOf(a, 'href'), cls: attrOf(a, 'class'), rel: attrOf(a, 'rel') }));
      expect(anchors).toContainEqual({ text: 'Status page', href: 'https://status.example.net', cls: 'external', rel: 'noopener noreferrer' });
      expect(anchors).toContainEqual({ text: 'Terms', href: 'https://policies.example.com/terms', cls: 'external', rel: 'noopener noreferrer' });
      // A page of the site is not marked as leaving it.
      expect(anchors.find((a) => a.text === 'Setup')?.cls).toBeUndefined();
    } finally {
      await s.stop();
    }
  });
});

describe('link pages: bad input is refused (exit 2, naming the SUMMARY.md line, nothing sent)', () => {
  const cases: [string, string, RegExp][] = [
    [
      'a javascript: URL',
      '* [A](a.md)\n* [Click](javascript:alert(1))\n',
      /SUMMARY\.md line 2 \(\* \[Click\]\(javascript:alert\(1\)\)\): javascript:alert\(1\): a javascript: URL/,
    ],
    ['a data: URL', '* [A](a.md)\n* [Data](data:text/html,hi)\n', /SUMMARY\.md line 2 \(\* \[Data\]\(data:text\/html,hi\)\): .*a data: URL/],
    ['credentials in the URL', '* [A](a.md)\n* [Admin](https://root:secret@example.com/)\n', /SUMMARY\.md line 2 .*user name or password/],
    ['pages under a link page', '* [A](a.md)\n* [Ext](https://example.com)\n  * [B](b.md)\n', /SUMMARY\.md line 2 .*a link page \(a URL\) cannot hold pages/],
  ];
  it.each(cases)('%s', { timeout: 60_000 }, async (_, summary, message) => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_link_pages_bad' };
    const space = (await docs(['spaces', 'create', '--title', 'Bad', '--json'], env)).json.id as string;
    const dir = writeTree({ 'SUMMARY.md': summary, 'a.md': '# A\n', 'b.md': '# B\n' });
    const r = await docs(['content', 'push', dir, '--space', space], env);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await docs(['cr', 'list', space, '--json'], env)).json.items ?? []).toEqual([]);
    // The check reports it too (exit 1), with its line.
    const c = await docs(['content', 'check', dir, '--json'], env);
    expect(c.status).toBe(1);
    expect(c.json.problems).toContainEqual(expect.objectContaining({ line: 2, kind: 'bad-link' }));
  });

  it('the server refuses the same targets through the API (400, nothing written)', { timeout: 60_000 }, async () => {
    const s = await startServer();
    try {
      const call = api(s);
      const org = (await call('GET', '/v1/orgs')).items[0].id;
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'API links' });
      const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'links' });
      const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
      for (const target of [
        { kind: 'url', url: 'javascript:alert(1)' },
        { kind: 'url', url: 'data:text/html,<b>x</b>' },
        { kind: 'url', url: 'https://user:pw@example.com' },
        { kind: 'url', url: 'not a url' },
        undefined,
      ]) {
        const r = await s.api('POST', path, { body: { changes: [{ operation: 'insert_page', type: 'link', title: 'L', target, document: {} }] } });
        expect(r.status, JSON.stringify(target)).toBe(400);
      }
      const ok = await s.api('POST', `${path}?compat=false`, {
        body: {
          changes: [{ operation: 'insert_page', ref: 'l', type: 'link', title: 'L', target: { kind: 'url', url: 'https://example.com' }, document: {} }],
        },
      });
      expect(ok.status).toBe(200);
      const id = ok.body.changes[0].page.id as string;
      // A link page takes no document, no slug; a document page takes no target.
      for (const change of [
        { operation: 'update_page', page: id, document: { markdown: 'x' } },
        { operation: 'update_page', page: id, slug: 'x' },
        { operation: 'update_page', page: id, target: { kind: 'url', url: 'javascript:x' } },
        { operation: 'insert_page', title: 'D', document: { markdown: 'd' }, target: { kind: 'url', url: 'https://example.com' } },
      ])
        expect((await s.api('POST', path, { body: { changes: [change] } })).status, JSON.stringify(change)).toBe(400);
      const moved = await s.api('POST', path, {
        body: { changes: [{ operation: 'update_page', page: id, title: 'L2', target: { kind: 'url', url: 'https://example.net/' } }] },
      });
      expect(moved.status).toBe(200);
      const pages = (await call('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`)).pages;
      expect(pages).toEqual([
        expect.objectContaining({ type: 'link', title: 'L2', target: { kind: 'url', url: 'https://example.net/' }, href: 'https://example.net/' }),
      ]);
    } finally {
      await s.stop();
    }
  });
});
