import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitRevision, currentRevision, treeOf } from '../../src/content/revisions.js';
import type { FileEntry, PageNode } from '../../src/content/model.js';
import { docs, docsAsync, type CliResult } from '../helpers/cli.js';
import { withServer } from '../helpers/loopback.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { Spaces } from '../../src/spaces/tables.js';

// Boundary: `docs content pull` writes only inside the target folder, whatever the server sends
// (issue 26, finding 4). A file named `../../../../../../outside/PWNED.txt` was written outside
// the folder, and one named `..` ended in "internal error: EISDIR". The server now refuses such
// names (file-names.test.ts), so they are planted straight into the store here, as an older
// build (or a write into PostgreSQL) would have left them: pull writes each under a safe name,
// with a warning naming the original, and never follows a link already in the folder out of it.

const HOSTILE_FILES = [
  '../../../../../../outside/PWNED.txt',
  '..',
  '.',
  '',
  '/abs/PWNED.txt',
  'a\\..\\..\\WIN.txt',
  'x\u0001y.txt',
  `${'n'.repeat(300)}.txt`,
  'intro.md', // a page's file
  'SUMMARY.md',
  'dup.txt',
  'dup.txt',
  'images', // a file where a folder is needed...
  'images/logo.png', // ...by this one
];

/** A space with pages and files made through the API, then renamed in the store (a hostile past). */
async function plant(s: TestServer): Promise<string> {
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Hostile' } })).body.id as string;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Content' } })).body;
  const page = (ref: string, title: string, into?: string) => ({
    operation: 'insert_page',
    ref,
    title,
    document: { markdown: `${title} body.` },
    ...(into ? { into } : {}),
  });
  const files = HOSTILE_FILES.map((_, i) => ({ name: `f${i}.txt`, contentType: 'text/plain', base64: Buffer.from(`BYTES-${i}`).toString('base64') }));
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, {
    body: {
      changes: [
        { operation: 'insert_files', files },
        page('intro', 'Intro'),
        page('guide', 'Guide'),
        page('setup', 'Setup', 'guide'),
        page('deep', 'Deep', 'guide'),
        page('twin', 'Twin'),
        page('summary', 'Summary page'),
        page('slashed', 'Slashed'),
      ],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`)).status).toBe(200);
  const slugs: Record<string, string> = { Setup: '..', Deep: '../../../outside/PAGE', Twin: 'intro', 'Summary page': 'SUMMARY', Slashed: 'a/b' };
  await s.ctx.store.write((tx) => {
    const row = tx.get(Spaces, space)!;
    const rev = currentRevision(tx, row);
    const pages: PageNode[] = JSON.parse(JSON.stringify(treeOf(tx, rev)));
    const rename = (list: PageNode[]) => list.forEach((p) => ((p.slug = slugs[p.title] ?? p.slug), rename(p.pages)));
    rename(pages);
    const named: FileEntry[] = [...rev.files!]
      .sort((a, b) => Number(a.name.slice(1, -4)) - Number(b.name.slice(1, -4)))
      .map((f, i) => ({ ...f, name: HOSTILE_FILES[i]! }));
    const next = commitRevision(tx, s.ctx, space, [rev.id], { pages, files: named });
    tx.put(Spaces, { ...row, revision: next.id });
  });
  return space;
}

/** Every path under `root` (links not followed), relative. */
const tree = (root: string): string[] =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((p) => p.split('\\').join('/'))
    .sort();

/** A target folder beside an `outside` folder holding a victim, with links out planted in the target. */
function target(withLinks: boolean) {
  const root = tempDir('docs-pull-folder-');
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim.md'), 'VICTIM\n');
  const dir = join(root, 'a', 'b', 'c', 'd', 'e', 'docs');
  mkdirSync(dir, { recursive: true });
  if (withLinks) {
    symlinkSync(outside, join(dir, 'images'));
    symlinkSync(join(outside, 'victim.md'), join(dir, 'intro.md'));
    symlinkSync(outside, join(dir, 'guide'));
    symlinkSync(join(outside, 'victim.md'), join(dir, 'SUMMARY.md'));
  }
  return { root, outside, dir };
}

function check(r: CliResult, t: ReturnType<typeof target>, linked = false) {
  expect(r.status, r.stdout + r.stderr).toBe(0);
  if (linked) {
    // The links planted in the folder were replaced (said on stderr), their targets untouched.
    for (const [name, by] of [
      ['intro.md', 'the file'],
      ['SUMMARY.md', 'the file'],
      ['guide', 'a folder'],
      ['images', 'the file'],
    ]) {
      expect(r.stderr).toContain(`Warning: ${name} in ${t.dir} was a symbolic link; replaced by ${by}`);
      expect(lstatSync(join(t.dir, name!)).isSymbolicLink()).toBe(false);
    }
  }
  expect(r.stderr).not.toMatch(/internal error/i);
  // Nothing outside the target folder changed: the victim and its folder are as they were, and
  // the root holds only the target's ancestors besides.
  expect(tree(t.outside)).toEqual(['victim.md']);
  expect(readFileSync(join(t.outside, 'victim.md'), 'utf8')).toBe('VICTIM\n');
  expect(tree(t.root).filter((p) => !p.startsWith('a/b/c/d/e/docs/') && !p.startsWith('outside/'))).toEqual([
    'a',
    'a/b',
    'a/b/c',
    'a/b/c/d',
    'a/b/c/d/e',
    'a/b/c/d/e/docs',
    'outside',
  ]);
  // Each hostile name: a warning naming it, and its bytes inside the folder under a safe name.
  const renamed: { kind: string; original: string; written: string }[] = r.json.renamed;
  // (The first dup.txt keeps its name, and so does the file `images`, listed before `images/logo.png`.)
  for (const name of new Set(HOSTILE_FILES)) {
    if (name === 'images') continue;
    const got = renamed.filter((x) => x.kind === 'file' && x.original === name);
    expect(got.length, `${JSON.stringify(name)} in ${JSON.stringify(renamed)}`).toBe(1);
    expect(r.stderr).toContain(`Warning: file ${JSON.stringify(name)} written as `);
  }
  for (const x of renamed) {
    const abs = join(t.dir, x.written);
    expect(relative(t.dir, abs).startsWith('..'), x.written).toBe(false);
    expect(lstatSync(abs).isFile(), x.written).toBe(true);
  }
  const bytes = new Set(renamed.filter((x) => x.kind === 'file').map((x) => readFileSync(join(t.dir, x.written), 'utf8')));
  expect(bytes.size).toBe(renamed.filter((x) => x.kind === 'file').length);
  // Pages: the unsafe slugs and the taken paths are renamed too; the real ones keep theirs.
  for (const p of ['guide/..', 'guide/../../../outside/PAGE', 'intro', 'SUMMARY', 'a/b'])
    expect(
      renamed.some((x) => x.kind === 'page' && x.original === p),
      p,
    ).toBe(true);
  expect(readFileSync(join(t.dir, 'intro.md'), 'utf8')).toContain('Intro body.');
  expect(readFileSync(join(t.dir, 'guide', 'README.md'), 'utf8')).toContain('Guide body.');
  expect(lstatSync(join(t.dir, 'intro.md')).isFile()).toBe(true);
  // SUMMARY.md is the table of contents, listing the pages where they were written.
  const summary = readFileSync(join(t.dir, 'SUMMARY.md'), 'utf8');
  expect(summary.startsWith('# Table of contents')).toBe(true);
  for (const line of summary.split('\n').filter((l) => l.includes(']('))) {
    const file = decodeURI(/\]\((.*)\)$/.exec(line)![1]!);
    expect(existsSync(join(t.dir, file)), line).toBe(true);
  }
}

describe('docs content pull writes only inside the folder, whatever the store holds', () => {
  it('over HTTP and in-process; links already in the folder are not followed out of it', { timeout: 120_000 }, async () => {
    const data = tempDir('docs-pull-data-');
    const s = await startServer({ dataDir: data });
    let space: string;
    try {
      space = await plant(s);
      // Over HTTP: the CLI against the real server.
      const http = target(false);
      check(await docs(['content', 'pull', http.dir, '--space', space, '--api-url', s.url, '--token', s.token, '--json']), http);
      const linked = target(true);
      check(await docs(['content', 'pull', linked.dir, '--space', space, '--api-url', s.url, '--token', s.token, '--json', '--force']), linked, true);
    } finally {
      await s.stop();
    }
    // In-process: the CLI on the data directory itself.
    const local = target(true);
    check(await docs(['content', 'pull', local.dir, '--space', space!, '--json', '--force'], { DOCS_DATA: data }), local, true);

    // `docs files download` saves under the file's name in the current folder: `..` and an
    // empty name are saved under safe names there (with a warning), not an error or a climb.
    const files = (await docs(['api', 'GET', `/spaces/${space!}/content/files`, '-f', 'limit=100', '--json'], { DOCS_DATA: data })).json.items;
    const cwd = join(tempDir('docs-download-'), 'here');
    mkdirSync(cwd);
    for (const [name, saved] of [
      ['..', '__'],
      ['', '_'],
      ['a\\..\\..\\WIN.txt', 'a_.._.._WIN.txt'],
    ]) {
      const id = files.find((f: any) => f.name === name).id;
      const r = await docsAsync(['files', 'download', space!, id, '--json'], { DOCS_DATA: data }, { cwd });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(`Warning: the file's name ${JSON.stringify(name)} is not a safe file name here; saved as ${saved}`);
      expect(lstatSync(join(cwd, saved!)).isFile()).toBe(true);
    }
    expect(readdirSync(join(cwd, '..'))).toEqual(['here']);
  });
});

describe('names for files saved in the current folder come from the server: made safe there', () => {
  it('docs spaces pdf: a PDF named ../../evil.pdf by the server is saved as .._.._evil.pdf', { timeout: 60_000 }, async () => {
    const root = tempDir('docs-pdf-name-');
    const cwd = join(root, 'a', 'here');
    mkdirSync(cwd, { recursive: true });
    let r: CliResult | undefined;
    await withServer(
      (req, res) => {
        const url = new URL(req.url!, 'http://x');
        if (url.pathname === '/v1/spaces/s1/pdf') {
          res.setHeader('content-type', 'application/json');
          return res.end(JSON.stringify({ url: `http://${req.headers.host}/pdf/s1/k.pdf?name=${encodeURIComponent('../../evil.pdf')}` }));
        }
        if (url.pathname === '/pdf/s1/k.pdf') {
          res.setHeader('content-type', 'application/pdf');
          return res.end('%PDF-1.4 fake');
        }
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { code: 404, message: `no ${url.pathname}` } }));
      },
      async (url) => {
        r = await docsAsync(['spaces', 'pdf', 's1', '--api-url', url, '--token', 't'], {}, { cwd });
      },
    );
    expect(r!.status, r!.stderr).toBe(0);
    expect(r!.stderr).toContain('saved as .._.._evil.pdf');
    expect(readdirSync(cwd)).toEqual(['.._.._evil.pdf']);
    expect(tree(root)).toEqual(['a', 'a/here', 'a/here/.._.._evil.pdf']);
  });
});
