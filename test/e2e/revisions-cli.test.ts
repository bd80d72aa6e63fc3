import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { expectContract } from '../helpers/contract.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Any revision of a space, by id (issue 27: revision ids were handed out everywhere but could only
// be read whole): its pages, a page by id or nested path, the page's Document, its files. Over
// HTTP (answers checked against the contract) and from the CLI on both transports (in this
// process: the server is this file's, so the CLI's requests are real HTTP).

let s: TestServer;
const dataDir = tempDir();
let space: string;
let first: string; // the revision with the first version of the pages
let setup: string;
const env = () => ({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token });

beforeAll(async () => {
  s = await startServer({ dataDir });
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Docs' } })).body.id;
  const edit = async (changes: object[]) => {
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Edit' } })).body.id;
    const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, { body: { changes } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { changes: r.body.changes, revision: (await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/merge`)).body.revision as string };
  };
  const one = await edit([
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The guide.' } },
    { operation: 'insert_page', title: 'Setup', into: 'guide', document: { markdown: 'Run **it**.' } },
    { operation: 'insert_files', files: [{ name: 'notes.txt', ref: 'notes', contentType: 'text/plain', base64: Buffer.from('v1').toString('base64') }] },
  ]);
  first = one.revision;
  setup = one.changes[1].page.id;
  // The space moves on: the revision must still show what it held.
  await edit([{ operation: 'update_page', page: setup, title: 'Install', document: { markdown: 'Changed.' } }]);
});
afterAll(() => s.stop());

/** GET path, its answer checked against the contract. */
async function get(path: string) {
  const r = await s.api('GET', path);
  expectContract('GET', path, r.status, r.body);
  return r;
}

describe('revision content over HTTP', () => {
  it('pages, a page by id and by nested path, its Document, files: as they were', async () => {
    const base = `/v1/spaces/${space}/revisions/${first}`;
    const pages = await get(`${base}/pages`);
    expect(pages.body.pages[0].pages.map((p: any) => p.title)).toEqual(['Setup']);
    const byId = await get(`${base}/page/${setup}`);
    expect(byId.body).toMatchObject({ title: 'Setup', markdown: 'Run **it**.\n', path: 'guide/setup' });
    for (const p of ['guide/setup', 'guide%2Fsetup']) expect((await get(`${base}/path/${p}`)).body.id).toBe(setup);
    const doc = await get(`${base}/page/${setup}/document`);
    expect(doc.body.nodes[0].type).toBe('paragraph');
    const files = await get(`${base}/files`);
    const file = await get(`${base}/files/${files.body.items[0].id}`);
    expect(file.body.name).toBe('notes.txt');
    // The current revision shows the edit.
    expect((await s.api('GET', `/v1/spaces/${space}/content/page/${setup}`)).body.title).toBe('Install');
  });

  it('a revision, page or file that is not there is 404 with the error body', async () => {
    const base = `/v1/spaces/${space}/revisions`;
    for (const path of [
      `${base}/nope/pages`,
      `${base}/${first}/page/nope`,
      `${base}/${first}/path/guide/nope`,
      `${base}/${first}/files/nope`,
      `${base}/${first}/page/nope/document`,
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it('a caller who cannot see the space sees no revision of it', async () => {
    const r = await s.api('GET', `/v1/spaces/${space}/revisions/${first}/pages`, { token: null });
    expect(r.status).toBe(401);
  });
});

describe('docs revisions', () => {
  it('pages, page (id, --path, --format document), files, file, get: over HTTP', async () => {
    const tree = await docs(['revisions', 'pages', space, first], env());
    expect(tree.status, tree.stderr).toBe(0);
    expect(tree.stdout).toContain('Setup  (guide/setup)');
    const page = await docs(['revisions', 'page', space, first, '--path', 'guide/setup'], env());
    expect(page.stdout).toBe('# Setup\n\nRun **it**.\n');
    const doc = await docs(['revisions', 'page', space, first, setup, '--format', 'document', '--json'], env());
    expect(doc.json.object).toBe('document');
    const files = await docs(['revisions', 'files', space, first, '--json'], env());
    expect(files.json.items.map((f: any) => f.name)).toEqual(['notes.txt']);
    const file = await docs(['revisions', 'file', space, first, files.json.items[0].id, '--jq', '.name'], env());
    expect(file.stdout).toBe('notes.txt\n');
    const rev = await docs(['revisions', 'get', space, first, '--json'], env());
    expect(rev.json.id).toBe(first);
    const missing = await docs(['revisions', 'page', space, first, '--path', 'nope'], env());
    expect(missing.status).toBe(3);
  });

  it('in-process on the data directory, once the server has let it go', async () => {
    await s.stop();
    const r = await docs(['revisions', 'page', space, first, '--path', 'guide/setup'], {
      DOCS_DATA: dataDir,
      DOCS_API_URL: undefined,
      DOCS_TOKEN: undefined,
    });
    expect([r.status, r.stdout], r.stderr).toEqual([0, '# Setup\n\nRun **it**.\n']);
  });
});
