import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Boundary: file names and page slugs are safe path segments (issue 26, finding 4). Any editor
// uploaded a file named `../../../../../../outside/PWNED.txt` (insert_files), merged, and a later
// `docs content pull` wrote it outside the folder. The server now refuses, at upload, every name
// that is not path segments joined by "/" (each 1 to 255 bytes, not "." or "..", no "\", no
// control characters), and every slug that is not one segment of its pattern (1 to 100): 400
// naming the field, nothing stored. Pull's own guard: pull-folder.test.ts.

const txt = (s: string) => Buffer.from(s).toString('base64');
const file = (name: string) => ({ operation: 'insert_files', files: [{ name, contentType: 'text/plain', base64: txt('PWNED') }] });

const HOSTILE_NAMES = [
  '../../../../../../outside/PWNED.txt',
  '..',
  '.',
  '',
  'a/../../b.txt',
  'a//b.txt',
  'a/',
  '/etc/passwd',
  'a\\..\\..\\b.txt',
  '..\\b.txt',
  'x\u0000.txt',
  'x\u001b[31m.txt',
  'x\u0085.txt',
  `${'a'.repeat(256)}.txt`,
  `${'é'.repeat(128)}`,
  Array.from({ length: 120 }, () => 'abcdefghi').join('/'),
];

let s: TestServer;
let org: string;
let editor: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  editor = (await addUser(s.ctx, org, 'edit')).token;
});
afterAll(() => s.stop());

async function openCr() {
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Names' } })).body.id as string;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Names' }, token: editor })).body;
  const edit = (changes: object[]) => s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content?compat=false`, { body: { changes }, token: editor });
  const files = async () => (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items.map((f: any) => f.name);
  return { space, cr, edit, files };
}

describe('the server refuses unsafe file names at upload (HTTP)', () => {
  it('each hostile name is a 400 naming changes[i].files[j].name, and nothing is stored', async () => {
    const { edit, files } = await openCr();
    for (const name of HOSTILE_NAMES) {
      const r = await edit([{ operation: 'insert_page', title: 'Kept out too', document: { markdown: '' } }, file('fine.txt'), file(name)]);
      expect(r.status, `${JSON.stringify(name)}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.error.message).toMatch(/^(body\.)?changes(\[2\]|\.2)\.files(\[0\]|\.0)\.name: /);
    }
    expect(await files()).toEqual([]);
  });

  it('names made of safe segments are taken (folders, dots inside, .gitbook, unicode)', async () => {
    const { edit, files } = await openCr();
    const names = ['notes.txt', 'images/logo.png', '.gitbook/assets/a b.png', 'v1.2..3/x', '...', 'ünïcödé/日本.txt', 'a'.repeat(255)];
    const r = await edit(names.map(file));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await files()).sort()).toEqual([...names].sort());
  });
});

describe('the server refuses unsafe page slugs (HTTP)', () => {
  it('insert_page, update_page and frontmatter: 400 naming the slug', async () => {
    const { space, cr, edit } = await openCr();
    for (const slug of ['..', '.', '', 'a/b', '../x', 'a\\b', 'x\u0000', 'x'.repeat(101)]) {
      const r = await edit([{ operation: 'insert_page', title: 'P', slug, document: { markdown: '' } }]);
      expect(r.status, `${JSON.stringify(slug)}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.error.message).toMatch(/^(body\.)?changes(\[0\]|\.0)\.slug: /);
    }
    // Frontmatter has no slug field: the page's slug comes from its title, a safe one.
    const fm = await edit([{ operation: 'insert_page', document: { markdown: '---\nslug: ../../x\n---\n# ../../P\n' } }]);
    expect(fm.status, JSON.stringify(fm.body)).toBe(200);
    const fmPage = await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/page/${fm.body.changes[0].page.id}`);
    expect(fmPage.body.path).toBe('p');
    const made = await edit([{ operation: 'insert_page', ref: 'p', title: 'P', slug: 'x'.repeat(100), document: { markdown: '' } }]);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const page = made.body.changes[0].page.id;
    const up = await edit([{ operation: 'update_page', page, slug: '..' }]);
    expect(up.status).toBe(400);
    expect(up.body.error.message).toMatch(/^changes\[0\]\.slug: /);
  });
});

/** The same upload through the CLI (`docs api`, the generic door), and push of a local unsafe name. */
function cli(run: (args: string[]) => Promise<{ status: number; stdout: string; stderr: string; json: any }>) {
  return async () => {
    const space = (await run(['spaces', 'create', '--title', 'Names', '--json'])).json.id as string;
    const cr = (await run(['api', 'POST', `/spaces/${space}/change-requests`, '-f', 'subject=Names', '--json'])).json;
    const body = join(tempDir('docs-names-'), 'body.json');
    writeFileSync(body, JSON.stringify({ changes: [file('../../../../../../outside/PWNED.txt')] }));
    const r = await run(['api', 'POST', `/spaces/${space}/change-requests/${cr.id}/content`, '--input', body]);
    expect(r.status, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('changes[0].files[0].name: "../../../../../../outside/PWNED.txt" is not a safe file name (segment 1 of 8 is "..")');
    // push: a file whose local name the server would refuse (a backslash is a name character on
    // Linux) is refused before anything is sent, not halfway.
    const dir = tempDir('docs-names-push-');
    writeFileSync(join(dir, 'intro.md'), '# Intro\n');
    writeFileSync(join(dir, 'a\\..\\b.png'), 'png');
    const p = await run(['content', 'push', dir, '--space', space]);
    expect(p.status, p.stdout + p.stderr).toBe(2);
    expect(p.stderr).toContain('a\\..\\b.png: not a safe file name (it contains "\\")');
    expect(p.stderr).toContain('nothing was sent');
    const open = await run(['api', 'GET', `/spaces/${space}/change-requests`, '--json']);
    expect(open.json.items.map((c: any) => c.number)).toEqual([cr.number]);
  };
}

describe('through the CLI', () => {
  const env = { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_names_cli' };
  it(
    'in-process',
    { timeout: 60_000 },
    cli(async (args) => await docs(args, env)),
  );

  it('against a server (--api-url)', { timeout: 60_000 }, async () => {
    const srv = await startServer({ dataDir: tempDir(), token: 'gb_api_names_remote' });
    const remote = { DOCS_API_URL: srv.url, DOCS_TOKEN: 'gb_api_names_remote' };
    try {
      await cli((args) => docs(args, remote))();
    } finally {
      await srv.stop();
    }
  });
});
