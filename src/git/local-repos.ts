import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { invalid, notFound } from '../kernel/errors.js';
import { fullRef } from './service.js';
import { loadGit, within } from './repo.js';

// The repositories a Git Sync installation lists (docs/manual/imports-and-git.md#git-sync-installations):
// those under the server's Git root (DOCS_GIT_ROOT, `docs serve --git-root DIR`), the same ones
// importGitRepository reaches by path. GitHub's and GitLab's APIs are never called: this server
// holds no GitHub App and no GitLab token, and an installation's requests must not make it reach
// out to any host. A repository is named as GitHub names one, `account/name`:
// - `<root>/<account>/<name>`: account `<account>`, repository `<name>`;
// - `<root>/<name>` (directly under the root): account `_` (a folder named `_` is not walked).
// Its numeric id (GitHub's repositoryId, GitLab's projectId) is a hash of that name, the same on
// every call. Every path is checked twice: the names by their shape (no `..`, `/`, `\`, leading
// dot, control character: 400) and the real path (links resolved) inside the root's (400).

export const ROOT_ACCOUNT = '_';
const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

export interface LocalRepo {
  id: number;
  accountName: string;
  repositoryName: string;
  fullName: string;
  gitdir: string;
}

/** The real path of the Git root, or a 400 naming why no repository can be listed. */
export function gitRoot(what: string): string {
  const root = process.env.DOCS_GIT_ROOT;
  if (!root)
    throw invalid(
      `${what}: GitHub's and GitLab's APIs are not reached from this server (it holds no GitHub App and no GitLab token); ` +
        'an installation lists the repositories under the Git root (docs serve --git-root DIR, or DOCS_GIT_ROOT), and none is set',
    );
  try {
    return realpathSync(root);
  } catch {
    throw invalid(`${what}: the Git root ${root} does not exist`);
  }
}

/** The numeric id of a repository: 6 bytes of the SHA-256 of its full name (a safe integer). */
export const repoId = (fullName: string): number => Number.parseInt(createHash('sha256').update(fullName).digest('hex').slice(0, 12), 16);

/**
 * The git directory of a folder that is a repository (worktree or bare), else undefined; its real
 * path too must be inside the root (a `.git` linked to a repository elsewhere is not one).
 */
function gitdirOf(rootReal: string, dir: string): string | undefined {
  const gitdir = existsSync(join(dir, '.git')) ? join(dir, '.git') : dir;
  try {
    const real = realpathSync(gitdir);
    if (within(rootReal, real) && existsSync(join(real, 'HEAD')) && statSync(join(real, 'objects')).isDirectory()) return real;
  } catch {}
  return undefined;
}

/** A folder under the root, links resolved, if it stays inside the root. */
function inside(rootReal: string, path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return within(rootReal, real) && statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

const subdirs = (dir: string) => {
  try {
    return readdirSync(dir).filter((n) => NAME.test(n));
  } catch {
    return [];
  }
};

const make = (accountName: string, repositoryName: string, gitdir: string): LocalRepo => {
  const fullName = `${accountName}/${repositoryName}`;
  return { id: repoId(fullName), accountName, repositoryName, fullName, gitdir };
};

/** Every repository under the root, one or two folders down, by full name. */
export function listLocalRepos(what: string): LocalRepo[] {
  const root = gitRoot(what);
  const out: LocalRepo[] = [];
  for (const a of subdirs(root)) {
    const dir = inside(root, join(root, a));
    if (!dir) continue;
    const gitdir = gitdirOf(root, dir);
    if (gitdir) {
      out.push(make(ROOT_ACCOUNT, a, gitdir));
      continue;
    }
    if (a === ROOT_ACCOUNT) continue;
    for (const n of subdirs(dir)) {
      const sub = inside(root, join(dir, n));
      const g = sub && gitdirOf(root, sub);
      if (g) out.push(make(a, n, g));
    }
  }
  return out.sort((x, y) => (x.fullName < y.fullName ? -1 : x.fullName > y.fullName ? 1 : 0));
}

/** A name's shape: 400 for anything that could leave its folder. */
function checkName(field: string, v: string) {
  if (!NAME.test(v) || v === '..' || v === '.')
    throw invalid(`${field}: ${JSON.stringify(v)} is not a repository name (letters, digits, ".", "_", "-"; no "/", "..", "\\" or leading dot)`);
}

/** The repository `account/name` under the root: 400 for a hostile name or a link leaving the root, 404 when there is none. */
export function localRepo(what: string, accountName: string, repositoryName: string): LocalRepo {
  checkName('accountName', accountName);
  checkName('repositoryName', repositoryName);
  const root = gitRoot(what);
  const path = accountName === ROOT_ACCOUNT ? join(root, repositoryName) : join(root, accountName, repositoryName);
  let exists = false;
  try {
    lstatSync(path);
    exists = true;
  } catch {}
  if (!exists) throw notFound(`no repository ${accountName}/${repositoryName} under the Git root`);
  const real = inside(root, path);
  if (!real) throw invalid(`repositoryName: ${accountName}/${repositoryName} leads outside the server's Git root; only repositories under it are reached`);
  const dotgit = join(real, '.git');
  if (existsSync(dotgit) && !inside(root, dotgit))
    throw invalid(
      `repositoryName: ${accountName}/${repositoryName} leads outside the server's Git root (its .git is a link); only repositories under it are reached`,
    );
  const gitdir = gitdirOf(root, real);
  if (!gitdir) throw notFound(`no repository ${accountName}/${repositoryName} under the Git root (${accountName}/${repositoryName} is not a Git repository)`);
  return make(accountName, repositoryName, gitdir);
}

/** The repository with a numeric id (GitHub repositoryId, GitLab projectId), or 404. */
export function localRepoById(what: string, id: number, field = 'projectId'): LocalRepo {
  const hit = listLocalRepos(what).find((r) => r.id === id);
  if (!hit) throw notFound(`${field}: no repository with id ${id} under the Git root`);
  return hit;
}

/** The default branch (HEAD's), or null when HEAD names no branch. */
export async function defaultBranch(r: LocalRepo): Promise<string | null> {
  const git = await loadGit();
  try {
    const b = await git.currentBranch({ fs, gitdir: r.gitdir, fullname: false });
    return b ?? null;
  } catch {
    return null;
  }
}

export async function branchesOf(r: LocalRepo): Promise<{ name: string; ref: string }[]> {
  const git = await loadGit();
  const names = await git.listBranches({ fs, gitdir: r.gitdir });
  return names.sort().map((name) => ({ name, ref: `refs/heads/${name}` }));
}

/** Whether a branch (`refs/heads/x`) exists in the repository. */
export async function hasBranch(r: LocalRepo, ref: string): Promise<boolean> {
  const git = await loadGit();
  try {
    await git.resolveRef({ fs, gitdir: r.gitdir, ref });
    return true;
  } catch {
    return false;
  }
}

/** A file's path in a repository: relative, no `..`, `.`, empty segment, backslash or control character (400). */
export function checkFilePath(path: string): string[] {
  const segs = path.split('/');
  if (!path || path.startsWith('/') || path.includes('\\') || /[\u0000-\u001f]/.test(path) || segs.some((s) => s === '' || s === '.' || s === '..'))
    throw invalid(`path: ${JSON.stringify(path)} is not a file path of the repository (relative, no ".." or "." segment, no backslash)`);
  return segs;
}

/** A file at a ref: read from Git's objects (never from a working tree), links not followed. */
export async function fileAt(r: LocalRepo, path: string, ref: string): Promise<{ name: string; path: string; sha: string; size: number }> {
  const segs = checkFilePath(path);
  const full = fullRef(ref);
  const git = await loadGit();
  let oid: string;
  try {
    oid = await git.resolveRef({ fs, gitdir: r.gitdir, ref: full });
  } catch {
    throw notFound(`ref: ${r.fullName} has no ${full}`);
  }
  let tree = (await git.readCommit({ fs, gitdir: r.gitdir, oid })).commit.tree;
  for (const [i, seg] of segs.entries()) {
    const { tree: entries } = await git.readTree({ fs, gitdir: r.gitdir, oid: tree });
    const e = entries.find((x) => x.path === seg);
    const at = segs.slice(0, i + 1).join('/');
    if (!e) throw notFound(`path: ${r.fullName} has no ${path} at ${full}`);
    if (e.mode === '120000') throw invalid(`path: ${at} is a symbolic link in ${r.fullName}; links are not followed`);
    if (i < segs.length - 1) {
      if (e.type !== 'tree') throw notFound(`path: ${r.fullName} has no ${path} at ${full} (${at} is a file)`);
      tree = e.oid;
      continue;
    }
    if (e.type !== 'blob') throw notFound(`path: ${path} is a folder of ${r.fullName}, not a file`);
    const { blob } = await git.readBlob({ fs, gitdir: r.gitdir, oid: e.oid });
    return { name: seg, path, sha: e.oid, size: blob.length };
  }
  throw notFound(`path: ${r.fullName} has no ${path}`);
}
