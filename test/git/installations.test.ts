import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PICKERS, chooseGitInstallation } from '../../commands/_lib/pick.js';
import { repoId } from '../../src/git/local-repos.js';
import { GitSyncInstallations } from '../../src/git/tables.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, TEST_TOKEN, type TestServer } from '../helpers/server.js';

// Git Sync installations (docs/manual/imports-and-git.md#git-sync-installations): install on a
// space or a site, configure with a repository under the Git root and a branch (the sync at
// once with a priority), the repository, branch and file listings of both providers, and what is
// refused: hostile names and paths (400), links leaving the root, unknown ids (404), callers
// below admin (403), no Git root (400 naming why GitHub and GitLab are not reached).

let s: TestServer;
let org: string;
let root: string;
let outside: string;
let local: Transport;
const env = { ...process.env };

async function makeRepo(dir: string, files: Record<string, string>, branches: string[] = []) {
  fs.mkdirSync(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: 'main' });
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(join(dir, p, '..'), { recursive: true });
    fs.writeFileSync(join(dir, p), text);
    await git.add({ fs, dir, filepath: p });
  }
  await git.commit({ fs, dir, message: 'Docs', author: { name: 'T', email: 't@example.com' } });
  for (const b of branches) await git.branch({ fs, dir, ref: b });
  return dir;
}

const DOCS = {
  'SUMMARY.md': '* [Home](README.md)\n* [Setup](setup.md)\n',
  'README.md': '# Home\n',
  'setup.md': '# Setup\n\nRun it.\n',
  'docs/guide.md': '# Guide\n',
};

beforeAll(async () => {
  root = tempDir('docs-git-root-');
  outside = tempDir('docs-git-outside-');
  process.env.DOCS_GIT_ROOT = root;
  await makeRepo(join(root, 'acme', 'handbook'), DOCS, ['docs']);
  await makeRepo(join(root, 'solo'), { 'README.md': '# Solo\n' });
  // A repository outside the root, and links to it from inside: never listed, never read.
  await makeRepo(join(outside, 'secret'), { 'passwd.md': 'secret\n' });
  fs.symlinkSync(join(outside, 'secret'), join(root, 'evil'));
  fs.mkdirSync(join(root, 'acme2'));
  fs.symlinkSync(join(outside, 'secret'), join(root, 'acme2', 'evil'));
  // A repository folder inside the root whose .git is a link to one outside.
  fs.mkdirSync(join(root, 'acme', 'hollow'), { recursive: true });
  fs.symlinkSync(join(outside, 'secret', '.git'), join(root, 'acme', 'hollow', '.git'));
  // A commit holding a symbolic link (to /etc/passwd): its entry is not followed.
  const linked = join(root, 'acme', 'linked');
  await makeRepo(linked, { 'README.md': '# L\n' });
  fs.symlinkSync('/etc/passwd', join(linked, 'passwd'));
  await git.add({ fs, dir: linked, filepath: 'passwd' });
  await git.commit({ fs, dir: linked, message: 'link', author: { name: 'T', email: 't@example.com' } });
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  local = await LocalTransport.as(s.ctx, TEST_TOKEN, undefined, 'test');
});
afterAll(async () => {
  await s.stop();
  process.env = env;
});

const newSpace = async (title: string) => (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title } })).body.id as string;
const newSite = async (title: string) => (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title } })).body.id as string;
const install = (provider: string, target: object, token?: string) => s.api('POST', '/v1/git/installations', { body: { provider, target }, token });
const HANDBOOK = repoId('acme/handbook');

describe('a GitHub installation on a space', () => {
  it('installs, lists the repositories under the root (links out of it left out), branches and a file, configures, syncs, uninstalls', async () => {
    const space = await newSpace('Synced space');
    const made = await install('github', { type: 'space', spaceId: space });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ object: 'git-sync-installation', provider: 'github', target: { type: 'space', spaceId: space }, status: 'pending' });
    const id = made.body.id as string;
    expect(made.body.urls.location).toMatch(new RegExp(`/v1/git/installations/${id}$`));
    expect((await s.api('GET', `/v1/git/installations/${id}`)).body).toEqual(made.body);
    // One per target.
    const again = await install('gitlab', { type: 'space', spaceId: space });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(`already has a Git Sync installation (${id})`);

    const repos = await s.api('GET', `/v1/git/installations/${id}/github/repos`);
    expect(repos.status, JSON.stringify(repos.body)).toBe(200);
    expect(repos.body.items.map((r: any) => r.fullName)).toEqual(['_/solo', 'acme/handbook', 'acme/linked']);
    expect(repos.body.items[1]).toEqual({ id: HANDBOOK, accountName: 'acme', repositoryName: 'handbook', fullName: 'acme/handbook', defaultBranch: 'main' });
    const branches = await s.api('GET', `/v1/git/installations/${id}/github/repos/acme/handbook/branches`);
    expect(branches.body.items).toEqual([
      { name: 'docs', ref: 'refs/heads/docs' },
      { name: 'main', ref: 'refs/heads/main' },
    ]);
    const file = await s.api('GET', `/v1/git/installations/${id}/github/repos/acme/handbook/file?path=docs/guide.md&ref=refs/heads/main`);
    expect(file.status, JSON.stringify(file.body)).toBe(200);
    expect(file.body).toMatchObject({ name: 'guide.md', path: 'docs/guide.md', size: 8 });
    expect(file.body.sha).toMatch(/^[0-9a-f]{40}$/);
    // A bare branch name is taken as refs/heads/<name>.
    expect((await s.api('GET', `/v1/git/installations/${id}/github/repos/_/solo/file?path=README.md&ref=main`)).body.name).toBe('README.md');

    const set = await s.api('PATCH', `/v1/git/installations/${id}`, {
      body: { provider: 'github', providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/main' }, commitMessageTemplate: 'Docs sync' },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      status: 'active',
      providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/main' },
      repositoryConnection: { provider: 'github', repositoryName: 'acme/handbook', repositoryUrl: 'git-root:acme/handbook', repositoryId: String(HANDBOOK) },
      repositoryRef: { name: 'refs/heads/main', type: 'branch' },
      commitMessageTemplate: 'Docs sync',
    });
    // priority git: the branch imported into the space at once.
    const imp = await s.api('PATCH', `/v1/git/installations/${id}`, { body: { provider: 'github', providerConfiguration: {}, priority: 'git' } });
    expect(imp.status, JSON.stringify(imp.body)).toBe(200);
    expect((await s.api('GET', `/v1/spaces/${space}/content`)).body.pages.map((p: any) => p.title)).toEqual(['Home', 'Setup']);
    // priority gitbook on the docs branch: the space exported there, with the template as message.
    const exp = await s.api('PATCH', `/v1/git/installations/${id}`, {
      body: { provider: 'github', providerConfiguration: { branch: 'refs/heads/docs' }, priority: 'gitbook' },
    });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    const gitdir = join(root, 'acme', 'handbook', '.git');
    const head = await git.resolveRef({ fs, gitdir, ref: 'refs/heads/docs' });
    expect((await git.readCommit({ fs, gitdir, oid: head })).commit.message).toBe('Docs sync\n');
    expect((await s.api('GET', `/v1/spaces/${space}/git/info`)).body).toMatchObject({ operation: { direction: 'export', state: 'success' }, commit: head });

    const gone = await s.api('DELETE', `/v1/git/installations/${id}`);
    expect(gone.status).toBe(205);
    expect((await s.api('GET', `/v1/git/installations/${id}`)).status).toBe(404);
    expect((await s.api('DELETE', `/v1/git/installations/${id}`)).status).toBe(404);
  });

  it('refuses hostile names, paths and refs (400), links leaving the root (400), unknown ones (404); nothing changed', async () => {
    const space = await newSpace('Hostile');
    const id = (await install('github', { type: 'space', spaceId: space })).body.id as string;
    const base = `/v1/git/installations/${id}/github/repos`;
    const bad = async (path: string, status: number, text: string | RegExp) => {
      const r = await s.api('GET', path);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.body.error.message).toMatch(text);
    };
    await bad(`${base}/_/evil/branches`, 400, /leads outside the server's Git root/);
    await bad(`${base}/acme2/evil/branches`, 400, /leads outside the server's Git root/);
    await bad(`${base}/acme/hollow/branches`, 400, /acme\/hollow leads outside the server's Git root \(its .git is a link\)/);
    await bad(`${base}/.git/handbook/branches`, 400, /accountName: ".git" is not a repository name/);
    await bad(`${base}/acme/a%5Cb/branches`, 400, /repositoryName: "a\\\\b" is not a repository name/);
    await bad(`${base}/acme/a%2F..%2F..%2Fsecret/branches`, 400, /repositoryName: .* is not a repository name/);
    await bad(`${base}/acme/nothing/branches`, 404, /no repository acme\/nothing under the Git root/);
    for (const p of ['../secret/passwd.md', '/etc/passwd', 'docs/../../x', 'docs\\guide.md', './README.md', 'docs//guide.md'])
      await bad(`${base}/acme/handbook/file?path=${encodeURIComponent(p)}&ref=refs/heads/main`, 400, /^path: .* is not a file path of the repository/);
    await bad(`${base}/acme/linked/file?path=passwd&ref=refs/heads/main`, 400, /path: passwd is a symbolic link in acme\/linked; links are not followed/);
    await bad(`${base}/acme/handbook/file?path=README.md&ref=${encodeURIComponent('refs/heads/../../config')}`, 400, /ref: .* is not a valid Git ref/);
    await bad(`${base}/acme/handbook/file?path=nope.md&ref=refs/heads/main`, 404, /has no nope.md/);
    await bad(`${base}/acme/handbook/file?path=docs&ref=refs/heads/main`, 404, /is a folder/);
    await bad(`${base}/acme/handbook/file?path=README.md&ref=refs/heads/none`, 404, /has no refs\/heads\/none/);
    // importGitRepository by path refuses the same link (the git directory's real path is checked too).
    const imp = await s.api('POST', `/v1/spaces/${space}/git/import`, { body: { url: 'acme/hollow', ref: 'refs/heads/main' } });
    expect(imp.status).toBe(400);
    expect(imp.body.error.message).toContain("acme/hollow is outside the server's Git root");
    // `..` as a name, which a URL would fold away: straight through the door.
    const dots = await local
      .call('listGitHubRepoBranchesForGitSyncInstallation', { path: { installationId: id, accountName: '..', repositoryName: 'secret' } })
      .catch((e) => e);
    expect(dots.status).toBe(400);
    expect(dots.message).toContain('accountName: ".." is not a repository name');

    const before = (await s.api('GET', `/v1/git/installations/${id}`)).body;
    const patch = (body: object) => s.api('PATCH', `/v1/git/installations/${id}`, { body });
    const refused: [object, number, RegExp][] = [
      [{ provider: 'github', providerConfiguration: { repositoryId: 1 } }, 404, /repositoryId: no repository with id 1 under the Git root/],
      [{ provider: 'github', providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/../../config' } }, 400, /not a valid Git ref/],
      [
        { provider: 'github', providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/none' } },
        400,
        /acme\/handbook has no branch refs\/heads\/none/,
      ],
      [{ provider: 'github', providerConfiguration: { branch: 'refs/heads/main' } }, 400, /has no repository yet/],
      [{ provider: 'github', providerConfiguration: { repositoryId: HANDBOOK }, projectDirectory: '../..' }, 400, /projectDirectory: .* leaves the repository/],
      [{ provider: 'gitlab', providerConfiguration: { accessToken: 'glpat-x' } }, 400, /accessToken: this server never calls GitLab/],
      [
        { provider: 'gitlab', providerConfiguration: { customInstanceURL: 'https://gitlab.example.com' } },
        400,
        /customInstanceURL: https:\/\/gitlab.example.com: this server does not call/,
      ],
      [{ provider: 'github', providerConfiguration: {}, childInstallationProjectDirectories: { x: 'a' } }, 400, /only a site installation has children/],
      // The sync a priority runs fails (no such folder in the commit): the installation is not changed.
      [
        { provider: 'github', providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/main' }, projectDirectory: 'nowhere', priority: 'git' },
        400,
        /repoProjectDirectory: nowhere is not a folder of the commit/,
      ],
    ];
    for (const [body, status, text] of refused) {
      const r = await patch(body);
      expect(r.status, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.body.error.message).toMatch(text);
    }
    expect((await s.api('GET', `/v1/git/installations/${id}`)).body).toEqual(before);
    // The GitLab routes of a GitHub installation name where its repositories are.
    await bad(
      `/v1/git/installations/${id}/gitlab/projects`,
      400,
      /is a GitHub installation, not GitLab: its repositories are listed at \/git\/installations\/.*\/github\/repos/,
    );
    await bad('/v1/git/installations/nope', 404, /Git Sync installation nope not found/);
    await bad('/v1/git/installations/nope/github/repos', 404, /not found/);
    const target = await install('github', { type: 'space', spaceId: 'nope' });
    expect(target.status).toBe(404);
  });

  it('without a Git root: 400 naming why GitHub and GitLab are not reached', async () => {
    const space = await newSpace('No root');
    const id = (await install('gitlab', { type: 'space', spaceId: space })).body.id as string;
    delete process.env.DOCS_GIT_ROOT;
    try {
      const r = await s.api('GET', `/v1/git/installations/${id}/gitlab/projects`);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe(
        `installation ${id} (GitLab): GitHub's and GitLab's APIs are not reached from this server (it holds no GitHub App and no GitLab token); ` +
          'an installation lists the repositories under the Git root (docs serve --git-root DIR, or DOCS_GIT_ROOT), and none is set',
      );
    } finally {
      process.env.DOCS_GIT_ROOT = root;
    }
  });
});

describe('rights', () => {
  it('read on the target sees the installation; configuring, listing and uninstalling need admin (403); outsiders get 404; nothing changed', async () => {
    const space = await newSpace('Rights');
    const id = (await install('github', { type: 'space', spaceId: space })).body.id as string;
    const before = (await s.api('GET', `/v1/git/installations/${id}`)).body;
    const reader = await addUser(s.ctx, org, 'read');
    const editor = await addUser(s.ctx, org, 'edit');
    const stranger = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/git/installations/${id}`, { token: reader.token })).status).toBe(200);
    for (const token of [reader.token, editor.token]) {
      const p = await s.api('PATCH', `/v1/git/installations/${id}`, { token, body: { provider: 'github', providerConfiguration: { repositoryId: HANDBOOK } } });
      expect(p.status).toBe(403);
      expect(p.body.error.message).toContain('needs the admin level');
      expect((await s.api('GET', `/v1/git/installations/${id}/github/repos`, { token })).status).toBe(403);
      expect((await s.api('DELETE', `/v1/git/installations/${id}`, { token })).status).toBe(403);
      expect((await install('github', { type: 'space', spaceId: await newSpace('Other') }, token)).status).toBe(403);
    }
    expect((await s.api('GET', `/v1/git/installations/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await s.api('DELETE', `/v1/git/installations/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/git/installations/${id}`)).body).toEqual(before);
  });
});

describe('a GitLab installation on a site, and the space installations it manages', () => {
  it('projects, branches and files by project id; the site lists its own and its spaces; uninstall takes the children', async () => {
    const site = await newSite('Git site');
    const space = await newSpace('Site space');
    await s.api('POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { body: { spaceId: space } });
    // A space installation managed by the site's needs the site's first.
    const early = await install('gitlab', { type: 'space', spaceId: space, siteId: site });
    expect(early.status).toBe(400);
    expect(early.body.error.message).toContain(`site ${site} has no Git Sync installation`);
    const siteInst = await install('gitlab', { type: 'site', siteId: site });
    expect(siteInst.status, JSON.stringify(siteInst.body)).toBe(201);
    const sid = siteInst.body.id as string;
    const child = await install('gitlab', { type: 'space', spaceId: space, siteId: site });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    expect(child.body).toMatchObject({ parentInstallationId: sid, target: { type: 'space', spaceId: space, siteId: site } });
    const notOnSite = await install('gitlab', { type: 'space', spaceId: await newSpace('Elsewhere'), siteId: site });
    expect(notOnSite.status).toBe(400);
    expect(notOnSite.body.error.message).toContain('is not on site');

    const projects = await s.api('GET', `/v1/git/installations/${sid}/gitlab/projects`);
    expect(projects.body.items.find((p: any) => p.fullName === 'acme/handbook').id).toBe(HANDBOOK);
    const branches = await s.api('GET', `/v1/git/installations/${sid}/gitlab/projects/${HANDBOOK}/branches`);
    expect(branches.body.items.map((b: any) => b.name)).toEqual(['docs', 'main']);
    const file = await s.api('GET', `/v1/git/installations/${sid}/gitlab/projects/${HANDBOOK}/file?path=SUMMARY.md&ref=refs/heads/main`);
    expect(file.body).toMatchObject({ name: 'SUMMARY.md', path: 'SUMMARY.md' });
    expect((await s.api('GET', `/v1/git/installations/${sid}/gitlab/projects/12345/branches`)).status).toBe(404);
    expect((await s.api('GET', `/v1/git/installations/${sid}/github/repos`)).status).toBe(400);

    const set = await s.api('PATCH', `/v1/git/installations/${sid}`, {
      body: {
        provider: 'gitlab',
        providerConfiguration: { projectId: HANDBOOK, branch: 'refs/heads/main', customInstanceURL: null },
        childInstallationProjectDirectories: { [child.body.id]: 'docs' },
      },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ status: 'active', providerConfiguration: { projectId: HANDBOOK, branch: 'refs/heads/main' } });
    const kid = (await s.api('GET', `/v1/git/installations/${child.body.id}`)).body;
    expect(kid).toMatchObject({ status: 'active', projectDirectory: 'docs', repositoryConnection: { repositoryName: 'acme/handbook' } });
    // A managed installation inherits these.
    const inherited = await s.api('PATCH', `/v1/git/installations/${child.body.id}`, {
      body: { provider: 'gitlab', providerConfiguration: {}, previewExternalBranches: true },
    });
    expect(inherited.status).toBe(400);
    expect(inherited.body.error.message).toContain(`managed by site installation ${sid}`);

    const listed = await s.api('GET', `/v1/orgs/${org}/sites/${site}/spaces/git/installations`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((i: any) => i.id)).toEqual([sid, child.body.id]);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/nope/spaces/git/installations`)).status).toBe(404);

    expect((await s.api('DELETE', `/v1/git/installations/${sid}`)).status).toBe(205);
    expect((await s.api('GET', `/v1/git/installations/${child.body.id}`)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/sites/${site}/spaces/git/installations`)).body.items).toEqual([]);
  });
});

describe('deleting the site', () => {
  it("removes the site's installation and those of its site spaces in the same write", async () => {
    const site = await newSite('Doomed site');
    const space = await newSpace('Doomed space');
    await s.api('POST', `/v1/orgs/${org}/sites/${site}/site-spaces`, { body: { spaceId: space } });
    const sid = (await install('gitlab', { type: 'site', siteId: site })).body.id as string;
    const child = (await install('gitlab', { type: 'space', spaceId: space, siteId: site })).body.id as string;
    const rows = () => s.ctx.store.read((tx) => tx.find(GitSyncInstallations, 'site', site).map((r) => r.id));
    expect((await rows()).sort()).toEqual([sid, child].sort());
    expect((await s.api('DELETE', `/v1/orgs/${org}/sites/${site}`)).status).toBe(205);
    expect(await rows()).toEqual([]);
    expect((await s.api('GET', `/v1/git/installations/${child}`)).status).toBe(404);
  });
});

describe('the commands, the pickers and both transports', () => {
  for (const [label, env] of [
    ['in-process', () => ({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_gitsync' })],
    ['over HTTP', () => ({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token })],
  ] as const) {
    it(`${label}: install, repos, branches, file, update, get, list, uninstall`, async () => {
      const e = env();
      const space = (await docs(['spaces', 'create', '--title', `Git sync ${label}`, '--json'], e)).json.id;
      const made = await docs(['git-sync', 'install', '--provider', 'github', '--space', space, '--json'], e);
      expect(made.status, made.stderr).toBe(0);
      const id = made.json.id;
      const repos = await docs(['git-sync', 'repos', id], e);
      expect(repos.status, repos.stderr).toBe(0);
      expect(repos.stdout).toContain('acme/handbook');
      expect((await docs(['git-sync', 'branches', id, 'acme', 'handbook', '--json'], e)).json.items.map((b: any) => b.name)).toEqual(['docs', 'main']);
      const file = await docs(['git-sync', 'file', id, 'acme', 'handbook', '--path', 'README.md', '--ref', 'refs/heads/main', '--json'], e);
      expect(file.json).toMatchObject({ name: 'README.md', size: 7 });
      const upd = await docs(['git-sync', 'update', id, '--repository-id', String(HANDBOOK), '--branch', 'main', '--json'], e);
      expect(upd.status, upd.stderr).toBe(0);
      expect(upd.json).toMatchObject({ status: 'active', providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/main' } });
      expect((await docs(['git-sync', 'get', id, '--json'], e)).json.repositoryConnection.repositoryName).toBe('acme/handbook');
      const hostile = await docs(['git-sync', 'file', id, 'acme', 'handbook', '--path', '../../etc/passwd', '--ref', 'main'], e);
      expect(hostile.status).toBe(2);
      expect(hostile.stderr).toContain('is not a file path of the repository');
      const gone = await docs(['git-sync', 'uninstall', id, '--yes'], e);
      expect(gone.status, gone.stderr).toBe(0);
      expect(gone.stdout).toContain(`Uninstalled Git Sync installation ${id}`);
      expect((await docs(['git-sync', 'get', id], e)).status).toBe(3);
    });
  }

  it("git-sync list names a site's installations; the pickers list installations, repositories and projects", async () => {
    const site = await newSite('Picker site');
    const sid = (await install('github', { type: 'site', siteId: site })).body.id;
    const e = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const list = await docs(['git-sync', 'list', site, '--org', org], e);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(sid);
    expect((await chooseGitInstallation(local)).find((c) => c.value === sid)?.name).toBe(`github on site ${site} [pending]`);
    const ctx = (values: Record<string, string>) => ({ transport: local, values, flags: {} });
    expect((await PICKERS.accountName!.choices(ctx({ installationId: sid }))).map((c) => c.value)).toEqual(['_', 'acme']);
    expect((await PICKERS.repositoryName!.choices(ctx({ installationId: sid, accountName: 'acme' }))).map((c) => c.name)).toEqual([
      'acme/handbook (main)',
      'acme/linked (main)',
    ]);
    const gl = (await install('gitlab', { type: 'space', spaceId: await newSpace('Picker GitLab') })).body.id;
    expect((await PICKERS.projectId!.choices(ctx({ installationId: gl }))).map((c) => c.value)).toContain(String(HANDBOOK));
  });

  it('the operations answer the same through both transports', async () => {
    const scenario = async (t: Transport) => {
      const o = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      const space = ((await t.call('createSpace', { path: { organizationId: o }, body: { title: 'Parity' } })).body as any).id;
      const inst = (await t.call('installGitSyncProviderOnTarget', { body: { provider: 'github', target: { type: 'space', spaceId: space } } })).body as any;
      const repos = (await t.call('listGitHubRepositoriesForGitSyncInstallation', { path: { installationId: inst.id } })).body as any;
      const upd = (
        await t.call('updateGitSyncInstallationById', {
          path: { installationId: inst.id },
          body: { provider: 'github', providerConfiguration: { repositoryId: HANDBOOK, branch: 'refs/heads/main' } },
        })
      ).body as any;
      const bad = await t
        .call('getGitHubRepoFileForGitSyncInstallation', {
          path: { installationId: inst.id, accountName: 'acme', repositoryName: 'handbook' },
          query: { path: '../x', ref: 'main' },
        })
        .catch((err) => ({ status: err.status }));
      const del = await t.call('uninstallGitSyncInstallation', { path: { installationId: inst.id } });
      return [inst.status, repos.items.map((r: any) => r.fullName), upd.status, upd.repositoryConnection.repositoryName, (bad as any).status, del.status];
    };
    const { local: a, remote: b } = await runBoth(s, scenario);
    expect(a).toEqual(b);
    expect(a).toEqual(['pending', ['_/solo', 'acme/handbook', 'acme/linked'], 'active', 'acme/handbook', 400, 205]);
  });
});

// `git` binary used only to check nothing wrote outside: the repository outside the root is as made.
it('the repository outside the root was never written', () => {
  const log = execFileSync('git', ['-C', join(outside, 'secret'), 'log', '--format=%s', '--all'])
    .toString()
    .trim();
  expect(log).toBe('Docs');
});
