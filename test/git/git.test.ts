import { spawn, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Git import, export and info (docs/manual/imports-and-git.md#git): a local repository under the
// Git root (made with isomorphic-git), a loopback smart-HTTP server (git http-backend behind a
// node:http server in this test, closed after), and the URLs refused.

let s: TestServer;
let org: string;
let root: string;
let http: Server;
let httpBase: string;
const env = { ...process.env };

beforeAll(async () => {
  root = tempDir('docs-git-root-');
  process.env.DOCS_GIT_ROOT = root;
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  // git http-backend (CGI) for bare repositories under `root`, push enabled.
  http = createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
        REQUEST_METHOD: req.method!,
        PATH_INFO: u.pathname,
        QUERY_STRING: u.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: 'test',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (d) => chunks.push(d));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const end = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, end).toString();
      let status = 200;
      for (const line of head.split('\r\n')) {
        const [k, ...v] = line.split(':');
        if (k!.toLowerCase() === 'status') status = Number.parseInt(v.join(':'), 10);
        else res.setHeader(k!, v.join(':').trim());
      }
      res.writeHead(status);
      res.end(out.subarray(end + 4));
    });
  }).listen(0, '127.0.0.1');
  await new Promise((r) => http.once('listening', r));
  httpBase = `http://127.0.0.1:${(http.address() as any).port}`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((r) => http.close(r));
  await s.stop();
  process.env = env;
});

/** A repository under the root with a GitBook layout on `main`, made with isomorphic-git. */
async function makeRepo(name: string, files: Record<string, string>, bare = false) {
  const dir = join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(join(dir, p, '..'), { recursive: true });
    fs.writeFileSync(join(dir, p), text);
    await git.add({ fs, dir, filepath: p });
  }
  await git.commit({ fs, dir, message: 'Docs', author: { name: 'T', email: 't@example.com' } });
  if (bare) {
    execFileSync('git', ['clone', '--bare', '-q', dir, `${dir}.git`]);
    return `${dir}.git`;
  }
  return dir;
}

const DOCS = {
  'SUMMARY.md': '* [Home](README.md)\n* [Setup](setup.md)\n',
  'README.md': '# Home\n\nWelcome.\n',
  'setup.md': '# Setup\n\nSee [home](README.md).\n',
};

async function readFileAt(gitdir: string, ref: string, path: string) {
  const oid = await git.resolveRef({ fs, gitdir, ref });
  const { blob } = await git.readBlob({ fs, gitdir, oid, filepath: path });
  return { oid, text: Buffer.from(blob).toString() };
}

describe('a local repository under the Git root', () => {
  it('import replaces the space content; export writes SUMMARY.md, README.md and the pages on a branch; info reports both', async () => {
    const repo = await makeRepo('local-docs', DOCS);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'From Git' } })).body.id;
    expect((await s.api('GET', `/v1/spaces/${space}/git/info`)).status).toBe(404);
    const imp = await s.api('POST', `/v1/spaces/${space}/git/import`, { body: { url: 'local-docs', ref: 'refs/heads/main' } });
    expect(imp.status, JSON.stringify(imp.body)).toBe(204);
    const content = (await s.api('GET', `/v1/spaces/${space}/content`)).body;
    expect(content.pages.map((p: any) => p.title)).toEqual(['Home', 'Setup']);
    const info = await s.api('GET', `/v1/spaces/${space}/git/info`);
    expect(info.body).toMatchObject({ installationStatus: 'active', operation: { state: 'success', direction: 'import' }, ref: 'refs/heads/main' });

    const exp = await s.api('POST', `/v1/spaces/${space}/git/export`, { body: { url: repo, ref: 'refs/heads/docs', commitMessage: 'Export from docs' } });
    expect(exp.status, JSON.stringify(exp.body)).toBe(204);
    const gitdir = join(repo, '.git');
    const summary = await readFileAt(gitdir, 'refs/heads/docs', 'SUMMARY.md');
    expect(summary.text).toContain('[Setup](setup.md)');
    expect((await readFileAt(gitdir, 'refs/heads/docs', 'setup.md')).text).toContain('# Setup');
    expect((await readFileAt(gitdir, 'refs/heads/docs', 'README.md')).text).toContain('# Home');
    const { commit } = await git.readCommit({ fs, gitdir, oid: summary.oid });
    expect(commit.message).toBe('Export from docs\n');
    expect((await s.api('GET', `/v1/spaces/${space}/git/info`)).body).toMatchObject({
      operation: { state: 'success', direction: 'export' },
      commit: summary.oid,
    });
  });
});

describe('an http(s) Git server on loopback (DOCS_FETCH_ALLOW_PRIVATE=1)', () => {
  it('export pushes a commit; import reads it back', async () => {
    process.env.DOCS_FETCH_ALLOW_PRIVATE = '1';
    try {
      await makeRepo('remote', DOCS, true);
      const url = `${httpBase}/remote.git`;
      const a = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Over HTTP' } })).body.id;
      expect((await s.api('POST', `/v1/spaces/${a}/git/import`, { body: { url, ref: 'refs/heads/main' } })).status).toBe(204);
      const exp = await s.api('POST', `/v1/spaces/${a}/git/export`, { body: { url, ref: 'refs/heads/main', commitMessage: 'Round trip' } });
      expect(exp.status, JSON.stringify(exp.body)).toBe(204);
      const log = execFileSync('git', ['--git-dir', join(root, 'remote.git'), 'log', '--format=%s', 'main']).toString();
      expect(log.split('\n')[0]).toBe('Round trip');
      const b = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Back' } })).body.id;
      expect((await s.api('POST', `/v1/spaces/${b}/git/import`, { body: { url, ref: 'main' } })).status).toBe(204);
      expect((await s.api('GET', `/v1/spaces/${b}/content`)).body.pages.map((p: any) => p.title)).toEqual(['Home', 'Setup']);
    } finally {
      delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
    }
  });
});

describe('bad input: 400 naming the URL, nothing changed', () => {
  it.each([
    ['a loopback URL without the private switch', () => `${httpBase}/remote.git`, 'is a loopback address'],
    ['a path outside the Git root', () => '/etc', "outside the server's Git root"],
    ['a folder that is not a repository', () => (fs.mkdirSync(join(root, 'plain'), { recursive: true }), 'plain'), 'plain is not a Git repository'],
    ['an ssh URL', () => 'ssh://git@example.com/x.git', 'only http(s) Git servers'],
    [
      'a URL that is not a repository',
      () => ((process.env.DOCS_FETCH_ALLOW_PRIVATE = '1'), `${httpBase}/nothing.git`),
      'is not a Git repository this server can reach',
    ],
  ])('%s', async (_label, url, message) => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Refused' } })).body.id;
    const u = url();
    const r = await s.api('POST', `/v1/spaces/${space}/git/import`, { body: { url: u, ref: 'refs/heads/main' } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain(u.replace(/^\/etc$/, '/etc'));
    expect(r.body.error.message).toContain(message);
    const e = await s.api('POST', `/v1/spaces/${space}/git/export`, { body: { url: u, ref: 'refs/heads/main', commitMessage: 'x' } });
    expect(e.status).toBe(400);
    expect((await s.api('GET', `/v1/spaces/${space}/git/info`)).status).toBe(404);
    delete process.env.DOCS_FETCH_ALLOW_PRIVATE;
  });
});
