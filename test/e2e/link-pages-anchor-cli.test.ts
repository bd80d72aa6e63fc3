import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { writeTree } from '../helpers/docs-folder.js';
import { tempDir, startServer, type TestServer } from '../helpers/server.js';
import { api, byTag, attrOf, get, textOf } from '../published/fixture.js';

// Link pages to a page of the same space (docs/manual/docs-as-code.md#link-pages): SUMMARY.md
// entries `* [Buttons](inline.md#buttons)` (an anchor) or `* [Inline again](inline.md#)` (the page
// itself) over a file listed elsewhere as a page, as GitBook's Git Sync writes them, become link
// pages with a target {kind: "anchor" | "page", page: <id>}, come back byte for byte through pull,
// are checked (the anchor is a heading of the page) and listed by --dry-run, and lead to the page
// on the published site.

const SUMMARY = `# Table of contents

* [Introduction](README.md)
* [Buttons](inline.md#buttons)
* [Inline](inline.md)
* [Guides](guides/README.md)
  * [Setup](guides/setup.md)
  * [Inline again](inline.md#)
  * [Setup steps](guides/setup.md#steps)

## More

* [Formatting](inline.md#formatting)
`;
const FOLDER = {
  'SUMMARY.md': SUMMARY,
  'README.md': '# Introduction\n\nWelcome.\n',
  'inline.md': '# Inline\n\n## Buttons\n\nPress.\n\n## Formatting\n\nBold.\n',
  'guides/README.md': '# Guides\n\nRead on.\n',
  'guides/setup.md': '# Setup\n\n## Steps\n\nRun it.\n',
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

  expect((await run('content', 'check', src)).stdout).toContain('No problems in ');

  const dry = await run('content', 'push', src, '--space', space, '--merge', '--dry-run');
  expect(dry.stdout).toContain('  added    [Buttons](inline.md#buttons)\n');
  expect(dry.stdout).toContain('  added    [Inline again](inline.md#)\n');
  expect(dry.stdout).toContain('  added    [Formatting](inline.md#formatting)\n');
  expect((await run('pages', 'list', space, '--json')).json.pages ?? []).toEqual([]);

  const pushed = (await run('content', 'push', src, '--space', space, '--merge', '--json')).json;
  // 4 pages with files, 4 link pages, the group.
  expect(pushed).toMatchObject({ merged: true, added: 9, updated: 0, deleted: 0 });

  const listed = (await run('pages', 'list', space, '--json')).json.pages as any[];
  const inline = listed.find((p) => p.title === 'Inline').id as string;
  const setup = listed.find((p) => p.title === 'Guides').pages.find((p: any) => p.title === 'Setup').id as string;
  const shape = (ps: any[]): unknown[] => ps.map((p) => (p.type === 'link' ? ['link', p.title, p.target] : [p.type, p.title, shape(p.pages ?? [])]));
  expect(shape(listed)).toEqual([
    ['document', 'Introduction', []],
    ['link', 'Buttons', { kind: 'anchor', page: inline, anchor: 'buttons' }],
    ['document', 'Inline', []],
    [
      'document',
      'Guides',
      [
        ['document', 'Setup', []],
        ['link', 'Inline again', { kind: 'page', page: inline }],
        ['link', 'Setup steps', { kind: 'anchor', page: setup, anchor: 'steps' }],
      ],
    ],
    ['group', 'More', [['link', 'Formatting', { kind: 'anchor', page: inline, anchor: 'formatting' }]]],
  ]);
  if (s) {
    // Checked against both specs by s.api (RevisionPageLink's target: ContentRefAnchor, ContentRefPage).
    const r = await s.api('GET', `/v1/spaces/${space}/content/pages`);
    expect(r.status).toBe(200);
    expect(r.body.pages[1]).toMatchObject({ type: 'link', kind: 'link', target: { kind: 'anchor', page: inline, anchor: 'buttons' } });
  }

  // Pull: the same bytes, SUMMARY.md included; pushing it again changes nothing.
  const out = join(tempDir('docs-anchor-pull-'), 'out');
  await run('content', 'pull', out, '--space', space);
  expect(readTree(out)).toEqual(readTree(src));
  expect((await run('content', 'push', out, '--space', space)).stdout).toBe(`No change: ${out} matches space ${space}.\n`);
  return space;
}

describe('SUMMARY.md entries linking to a page of the space (and an anchor) are link pages: push, pull byte for byte, check, --dry-run', () => {
  it('in-process', { timeout: 180_000 }, async () => {
    await scenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_anchor_pages' });
  });

  it('against a server (--api-url, --token), and the published site links them to the page and anchor', { timeout: 180_000 }, async () => {
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
      const links = byTag(nav, 'a').map((a: any) => ({ text: textOf(a).trim(), href: attrOf(a, 'href') as string, cls: attrOf(a, 'class') }));
      const inline = links.find((a) => a.text === 'Inline')!.href;
      expect(links).toContainEqual({ text: 'Buttons', href: `${inline}#buttons`, cls: undefined });
      expect(links).toContainEqual({ text: 'Inline again', href: inline, cls: undefined });
      expect(links.find((a) => a.text === 'Setup steps')!.href).toBe(`${links.find((a) => a.text === 'Setup')!.href}#steps`);
    } finally {
      await s.stop();
    }
  });
});

describe('link pages to a page across batches of 50 changes', () => {
  it('go in after the pages they lead to (an earlier batch by id, the same by ref), in a dry run too; then nothing changes', { timeout: 180_000 }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_anchor_batches' };
    const run = async (...args: string[]) => {
      const r = await docs(args, env);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const space = (await run('spaces', 'create', '--title', 'Many', '--json')).json.id as string;
    const files: Record<string, string> = {};
    const names = Array.from({ length: 60 }, (_, i) => `p${i + 1}`);
    for (const n of names) files[`${n}.md`] = `# ${n}\n\n## Part\n`;
    // The link pages come first: one leads to the first page (in the first batch), one to the last (in the second).
    files['SUMMARY.md'] = `# Table of contents\n\n* [First part](p1.md#part)\n* [Last](p60.md#)\n${names.map((n) => `* [${n}](${n}.md)\n`).join('')}`;
    const src = writeTree(files);
    const dry = await run('content', 'push', src, '--space', space, '--merge', '--dry-run', '--json');
    expect(dry.json.pages.added).toContain('[First part](p1.md#part)');
    expect((await run('content', 'push', src, '--space', space, '--merge', '--json')).json).toMatchObject({ merged: true, added: 62 });
    const listed = (await run('pages', 'list', space, '--json')).json.pages as any[];
    expect(listed.slice(0, 3).map((p) => [p.title, p.target])).toEqual([
      ['First part', { kind: 'anchor', page: listed[2].id, anchor: 'part' }],
      ['Last', { kind: 'page', page: listed[61].id }],
      ['p1', undefined],
    ]);
    const out = join(tempDir('docs-anchor-many-'), 'out');
    await run('content', 'pull', out, '--space', space);
    expect(readTree(out)).toEqual(readTree(src));
    expect((await run('content', 'push', out, '--space', space)).stdout).toBe(`No change: ${out} matches space ${space}.\n`);
  });
});

describe('link pages to a page: what is refused', () => {
  const cases: [string, string, RegExp, string][] = [
    [
      'the same file listed twice without an anchor (a true duplicate)',
      '* [A](a.md)\n* [A again](a.md)\n',
      /SUMMARY\.md line 2 \(\* \[A again\]\(a\.md\)\): a\.md is already listed on line 1/,
      'duplicate-path',
    ],
    [
      'an anchor in a file not listed as a page',
      '* [A](a.md)\n* [B part](b.md#part)\n',
      /SUMMARY\.md line 2 \(\* \[B part\]\(b\.md#part\)\): b\.md is not listed as a page in SUMMARY\.md/,
      'broken-link',
    ],
    ['pages under a link page to a page', '* [A](a.md)\n* [A part](a.md#part)\n  * [B](b.md)\n', /SUMMARY\.md line 2 .*cannot hold pages/, 'bad-link'],
  ];
  it.each(cases)('%s: exit 2 naming the line, nothing sent; check reports it', { timeout: 60_000 }, async (_, summary, message, kind) => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_anchor_bad' };
    const space = (await docs(['spaces', 'create', '--title', 'Bad', '--json'], env)).json.id as string;
    const dir = writeTree({ 'SUMMARY.md': summary, 'a.md': '# A\n\n## Part\n', 'b.md': '# B\n\n## Part\n' });
    const r = await docs(['content', 'push', dir, '--space', space], env);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect((await docs(['cr', 'list', space, '--json'], env)).json.items ?? []).toEqual([]);
    const c = await docs(['content', 'check', dir, '--json'], env);
    expect(c.status).toBe(1);
    expect(c.json.problems).toContainEqual(expect.objectContaining({ file: `${dir}/SUMMARY.md`, line: 2, kind }));
  });

  it('content check: an anchor that is no heading of the page is a broken anchor naming the SUMMARY.md line', { timeout: 60_000 }, async () => {
    const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_e2e_anchor_check' };
    const dir = writeTree({ 'SUMMARY.md': '* [A](a.md)\n* [Nope](a.md#nope)\n* [Part](a.md#part)\n', 'a.md': '# A\n\n## Part\n' });
    const c = await docs(['content', 'check', dir, '--json'], env);
    expect(c.status).toBe(1);
    expect(c.json.problems).toEqual([expect.objectContaining({ file: `${dir}/SUMMARY.md`, line: 2, kind: 'broken-anchor' })]);
  });

  it('the server: a target page of this content (id, or a ref of the batch), else 400 naming the field and nothing written', { timeout: 60_000 }, async () => {
    const s = await startServer();
    try {
      const call = api(s);
      const org = (await call('GET', '/v1/orgs')).items[0].id;
      const space = await call('POST', `/v1/orgs/${org}/spaces`, { title: 'API anchors' });
      const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'anchors' });
      const path = `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`;
      // The link page first, its page later in the batch, named by its ref.
      const ok = await s.api('POST', path, {
        body: {
          changes: [
            { operation: 'insert_page', ref: 'l', type: 'link', title: 'To A', target: { kind: 'anchor', page: 'a', anchor: 'part' }, document: {} },
            { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: '# A\n\n## Part\n' } },
            { operation: 'insert_page', ref: 'g', type: 'group', title: 'G', document: {} },
          ],
        },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const [link, a, g] = ok.body.changes.map((c: any) => c.page.id as string);
      const pages = () => call('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`).then((b: any) => b.pages);
      const before = await pages();
      expect(before[0]).toMatchObject({ type: 'link', target: { kind: 'anchor', page: a, anchor: 'part' } });
      for (const [target, field] of [
        [{ kind: 'page', page: 'nope' }, 'changes[0].target.page'],
        [{ kind: 'anchor', page: a }, 'changes[0].target.anchor'],
        [{ kind: 'anchor', page: a, anchor: 'two words' }, 'changes[0].target.anchor'],
        [{ kind: 'page', page: link }, 'changes[0].target.page'],
        [{ kind: 'page', page: g }, 'changes[0].target.page'],
        [{ kind: 'page', page: a, space: 'other' }, 'changes[0].target.space'],
      ] as const) {
        for (const change of [
          { operation: 'insert_page', type: 'link', title: 'L', target, document: {} },
          { operation: 'update_page', page: link, target },
        ]) {
          const r = await s.api('POST', path, { body: { changes: [change] } });
          expect(r.status, JSON.stringify(change)).toBe(400);
          expect(r.body.error.message, JSON.stringify(change)).toContain(field);
        }
      }
      // The target page deleted in the same batch: refused too.
      const gone = await s.api('POST', path, {
        body: {
          changes: [
            { operation: 'delete_page', page: a },
            { operation: 'update_page', page: link, target: { kind: 'page', page: a } },
          ],
        },
      });
      expect(gone.status).toBe(400);
      expect(await pages()).toEqual(before);
      const moved = await s.api('POST', path, { body: { changes: [{ operation: 'update_page', page: link, target: { kind: 'page', page: a } }] } });
      expect(moved.status).toBe(200);
      expect((await pages())[0]).toMatchObject({ type: 'link', target: { kind: 'page', page: a } });
      expect((await pages())[0].href).toBeUndefined();
    } finally {
      await s.stop();
    }
  });
});
