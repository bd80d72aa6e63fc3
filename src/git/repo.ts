import { existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, sep } from 'node:path';
import { invalid } from '../kernel/errors.js';
import { guardedLookup, loadIpaddr, refusedLiteral } from '../kernel/outbound-guard.js';
import { ARCHIVE_LIMITS, unsafePath, type Files } from '../imports/archive.js';

// Git repositories this server can reach, through isomorphic-git (a Git implementation in
// JavaScript: no `git` binary, no shell; docs/manual/imports-and-git.md#git):
// - a local repository, only under the root the server was given (DOCS_GIT_ROOT, or
//   `docs serve --git-root DIR`): its real path (links resolved) must be inside the root's; with no
//   root, no local path is reachable;
// - an http(s) Git server, through the outbound guard (src/kernel/outbound-guard.ts): public
//   addresses only, unless DOCS_FETCH_ALLOW_PRIVATE=1; bounded in time.
// Anything else, or something that is not a repository, is a 400 naming the URL.

type Git = typeof import('isomorphic-git');
let gitModule: Git | undefined;
export const loadGit = async (): Promise<Git> => (gitModule ??= ((await import('isomorphic-git')) as any).default ?? (await import('isomorphic-git')));

export type Remote = { kind: 'local'; url: string; shown: string; gitdir: string } | { kind: 'http'; url: string; shown: string };

export const within = (root: string, real: string) => {
  const r = relative(root, real);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
};

/** The URL as it may be shown: without its credentials. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol === 'http:' || u.protocol === 'https:') {
      u.username = '';
      u.password = '';
      return u.href;
    }
  } catch {}
  return url;
}

const TIMEOUT_MS = () => Number(process.env.DOCS_FETCH_TIMEOUT_MS) || 30_000;

/** The http client isomorphic-git is given: undici, every connection through the outbound guard. */
export async function guardedHttp() {
  const ip = await loadIpaddr();
  const allowPrivate = process.env.DOCS_FETCH_ALLOW_PRIVATE === '1';
  const { Agent, request } = await import('undici');
  const hint = 'refused (private and local addresses are not reached; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)';
  const agent = new Agent({
    connect: { ...(allowPrivate ? {} : { lookup: guardedLookup(ip, hint) as any }), timeout: TIMEOUT_MS() },
    headersTimeout: TIMEOUT_MS(),
    bodyTimeout: TIMEOUT_MS(),
  });
  const client = {
    async request({ url, method = 'GET', headers = {}, body }: any) {
      const u = new URL(url);
      const why = allowPrivate ? undefined : refusedLiteral(ip, u);
      if (why) throw Object.assign(new Error(`${u.host}: ${why}: ${hint}`), { code: 'EDOCSREFUSED' });
      let payload: Buffer | undefined;
      if (body) {
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(Buffer.from(c));
        payload = Buffer.concat(chunks);
      }
      if (u.username || u.password) {
        headers = {
          ...headers,
          authorization: `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`,
        };
        u.username = '';
        u.password = '';
      }
      const res = await request(u, { method, headers, body: payload, dispatcher: agent, signal: AbortSignal.timeout(TIMEOUT_MS()) });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
      return {
        url,
        method,
        statusCode: res.statusCode,
        statusMessage: String(res.statusCode),
        headers: out,
        body: res.body[Symbol.asyncIterator]() as AsyncIterableIterator<Uint8Array>,
      };
    },
  };
  return { client, close: () => agent.destroy().catch(() => {}) };
}

/** Which repository a URL names, or a 400 naming it. Local paths only under the Git root. */
export async function resolveRemote(url: string, where = 'url'): Promise<Remote> {
  const shown = shownUrl(url);
  if (/^https?:\/\//i.test(url)) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw invalid(`${where}: ${shown} is not a valid URL`);
    }
    if (process.env.DOCS_FETCH_ALLOW_PRIVATE !== '1') {
      const why = refusedLiteral(await loadIpaddr(), u);
      if (why) throw invalid(`${where}: ${shown}: ${why}: refused (private and local addresses are not reached; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)`);
    }
    const git = await loadGit();
    const { client, close } = await guardedHttp();
    try {
      await git.getRemoteInfo2({ http: client, url });
    } catch (err) {
      throw invalid(`${where}: ${shown} is not a Git repository this server can reach (${(err as Error).message})`);
    } finally {
      await close();
    }
    return { kind: 'http', url, shown };
  }
  let path = url;
  if (/^file:/i.test(url)) {
    try {
      path = decodeURIComponent(new URL(url).pathname);
    } catch {
      throw invalid(`${where}: ${url} is not a valid URL`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(url))
    throw invalid(`${where}: ${shown}: only http(s) Git servers and local repositories under the Git root are reached`);
  const root = process.env.DOCS_GIT_ROOT;
  if (!root) throw invalid(`${where}: ${url}: local repositories are reached only under the server's Git root (docs serve --git-root DIR), and none is set`);
  let rootReal: string;
  try {
    rootReal = realpathSync(root);
  } catch {
    throw invalid(`${where}: ${url}: the Git root ${root} does not exist`);
  }
  const abs = isAbsolute(path) ? path : join(rootReal, path);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw invalid(`${where}: ${url} is not a Git repository (no such folder under the Git root)`);
  }
  if (!within(rootReal, real)) throw invalid(`${where}: ${url} is outside the server's Git root; only repositories under it are reached`);
  let gitdir = existsSync(join(real, '.git')) ? join(real, '.git') : real;
  // The git directory itself (a `.git` that is a link) must be inside the root too.
  gitdir = realpathSync(gitdir);
  if (!within(rootReal, gitdir)) throw invalid(`${where}: ${url} is outside the server's Git root; only repositories under it are reached`);
  if (!existsSync(join(gitdir, 'HEAD')) || !existsSync(join(gitdir, 'objects')) || !statSync(join(gitdir, 'objects')).isDirectory())
    throw invalid(`${where}: ${url} is not a Git repository`);
  return { kind: 'local', url, shown, gitdir };
}

/** A bare working repository for a remote: the local one itself, or a temporary one fetched into (removed by `done`). */
export async function workRepo(
  remote: Remote,
  ref: string,
  opts: { fetch: boolean },
): Promise<{ gitdir: string; remoteOid?: string; done: () => Promise<void> }> {
  const git = await loadGit();
  if (remote.kind === 'local') {
    let remoteOid: string | undefined;
    try {
      remoteOid = await git.resolveRef({ fs, gitdir: remote.gitdir, ref });
    } catch {}
    return { gitdir: remote.gitdir, remoteOid, done: async () => {} };
  }
  const gitdir = mkdtempSync(join(tmpdir(), 'docs-git-'));
  const done = async () => rmSync(gitdir, { recursive: true, force: true });
  const { client, close } = await guardedHttp();
  try {
    await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
    await git.addRemote({ fs, gitdir, remote: 'origin', url: remote.url });
    let remoteOid: string | undefined;
    const refs = await git.listServerRefs({ http: client, url: remote.url, prefix: ref });
    const hit = refs.find((r) => r.ref === ref);
    if (hit && opts.fetch) {
      await git.fetch({ fs, http: client, gitdir, remote: 'origin', ref, remoteRef: ref, singleBranch: true, depth: 1, tags: false });
      remoteOid = hit.oid;
    } else if (hit) remoteOid = hit.oid;
    return { gitdir, remoteOid, done };
  } catch (err) {
    await done();
    throw err;
  } finally {
    await close();
  }
}

/** The files of a commit's tree (under `dir`), bounded like an archive. */
export async function readCommitFiles(gitdir: string, oid: string, dir = ''): Promise<Files> {
  const git = await loadGit();
  const files: Files = new Map();
  let bytes = 0;
  const visit = async (treeOid: string, at: string) => {
    const { tree } = await git.readTree({ fs, gitdir, oid: treeOid });
    for (const e of tree) {
      const p = at ? `${at}/${e.path}` : e.path;
      if (unsafePath(e.path) || e.path.includes('/')) continue;
      if (e.type === 'tree') await visit(e.oid, p);
      else if (e.type === 'blob' && e.mode !== '120000') {
        if (files.size >= ARCHIVE_LIMITS.maxEntries) throw invalid(`the commit has more than ${ARCHIVE_LIMITS.maxEntries} files; nothing was imported`);
        const { blob } = await git.readBlob({ fs, gitdir, oid: e.oid });
        bytes += blob.length;
        if (bytes > ARCHIVE_LIMITS.maxBytes) throw invalid(`the commit holds more than ${ARCHIVE_LIMITS.maxBytes} bytes; nothing was imported`);
        files.set(p, Buffer.from(blob));
      }
    }
  };
  const { commit } = await git.readCommit({ fs, gitdir, oid });
  let tree = commit.tree;
  for (const seg of dir.split('/').filter(Boolean)) {
    const { tree: entries } = await git.readTree({ fs, gitdir, oid: tree });
    const e = entries.find((x) => x.path === seg && x.type === 'tree');
    if (!e) throw invalid(`repoProjectDirectory: ${dir} is not a folder of the commit`);
    tree = e.oid;
  }
  await visit(tree, '');
  return files;
}

/** Writes `files` as a commit on top of `parent` (if any) and returns its id. */
export async function writeCommitOf(
  gitdir: string,
  files: Files,
  parent: string | undefined,
  message: string,
  author: { name: string; email: string },
  dir = '',
): Promise<string> {
  const git = await loadGit();
  type Node = Map<string, Node | Buffer>;
  const root: Node = new Map();
  for (const [p, b] of files) {
    const segs = [...dir.split('/').filter(Boolean), ...p.split('/')];
    let n = root;
    for (const s of segs.slice(0, -1)) {
      if (!(n.get(s) instanceof Map)) n.set(s, new Map());
      n = n.get(s) as Node;
    }
    n.set(segs[segs.length - 1]!, b);
  }
  const write = async (n: Node): Promise<string> => {
    const tree = [];
    for (const [name, v] of n) {
      if (v instanceof Map) tree.push({ mode: '040000', path: name, oid: await write(v), type: 'tree' as const });
      else tree.push({ mode: '100644', path: name, oid: await git.writeBlob({ fs, gitdir, blob: v }), type: 'blob' as const });
    }
    return git.writeTree({ fs, gitdir, tree });
  };
  const tree = await write(root);
  const now = Math.floor(Date.now() / 1000);
  const who = { ...author, timestamp: now, timezoneOffset: 0 };
  return git.writeCommit({
    fs,
    gitdir,
    commit: { message: message.endsWith('\n') ? message : `${message}\n`, tree, parent: parent ? [parent] : [], author: who, committer: who },
  });
}

/** Moves `ref` of the remote to `oid`: a local ref written, or a push (fast-forward unless `force`). */
export async function publish(remote: Remote, gitdir: string, ref: string, oid: string, force: boolean): Promise<void> {
  const git = await loadGit();
  if (remote.kind === 'local') {
    await git.writeRef({ fs, gitdir, ref, value: oid, force: true });
    return;
  }
  await git.writeRef({ fs, gitdir, ref, value: oid, force: true });
  const { client, close } = await guardedHttp();
  try {
    const r = await git.push({ fs, http: client, gitdir, url: remote.url, ref, remoteRef: ref, force });
    if (!r.ok) throw invalid(`url: ${remote.shown}: the push of ${ref} was refused (${r.error ?? 'unknown'})`);
  } finally {
    await close();
  }
}
