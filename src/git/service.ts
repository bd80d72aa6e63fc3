import type { Caller, Context } from '../kernel/context.js';
import { DocsError, invalid, notFound } from '../kernel/errors.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { requireContentEdit, visibleSpace } from '../spaces/service.js';
import { readBlob } from '../content/blobs.js';
import { canonicalBody, pageFile, writeSummary } from '../content/folder-layout.js';
import type { Parse } from '../content/link-refs.js';
import type { PageNode } from '../content/model.js';
import { currentRevision, filesOf, markdownOf, treeOf } from '../content/revisions.js';
import { flatten } from '../content/tree.js';
import { writePageSource } from '../documents/page-source.js';
import { Users } from '../users/tables.js';
import type { Files } from '../imports/archive.js';
import type { GitSyncRecord } from './model.js';
import { GitSync } from './tables.js';

// What a space's content is as a commit (docs/manual/imports-and-git.md#git): SUMMARY.md (the
// page tree), README.md (the first page, as GitBook's Git Sync has it, or the space's title when
// the first page has subpages), every page at its path (`a/b.md`, `a/b/README.md` with
// subpages) in the form `docs content pull` writes (frontmatter, `# Title`, the body with
// relative links: src/content/folder-layout.ts), and the space's files under their names.

const FIELDS = ['description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const;

export interface Snapshot {
  title: string;
  files: { name: string; sha: string }[];
  pages: { path: string; title: string; group: boolean; hasChildren: boolean; fields: Record<string, unknown>; markdown: string }[];
  tree: PageNode[];
  author: { name: string; email: string };
}

/** The space's current content, read once (the caller must see the space; `edit` to export). */
export function readSnapshot(tx: ReadTx, caller: Caller, spaceId: string): Snapshot {
  const { row: space } = requireContentEdit(tx, caller, spaceId);
  const rev = currentRevision(tx, space);
  const tree = treeOf(tx, rev);
  // The first page, a document without subpages, is README.md (GitBook's Git Sync does the same).
  const first = tree[0]?.type === 'document' && !tree[0].pages.length ? tree[0].id : undefined;
  const pages = flatten(tree)
    .filter((l) => l.node.type !== 'link')
    .map((l) => ({
      path: l.node.id === first ? 'README' : l.path,
      title: l.node.title,
      group: l.node.type === 'group',
      hasChildren: l.node.pages.length > 0,
      fields: Object.fromEntries(FIELDS.filter((k) => l.node[k] !== undefined).map((k) => [k, l.node[k]])),
      markdown: l.node.type === 'document' ? markdownOf(tx, space.id, l.node) : '',
      id: l.node.id,
    }));
  const user = tx.get(Users, caller.userId);
  return {
    title: space.title,
    files: filesOf(rev).map((f) => ({ name: f.name, sha: f.sha, id: f.id })),
    pages,
    tree,
    author: { name: user?.displayName || 'docs', email: user?.email || 'docs@localhost' },
  };
}

/** The commit's files for a snapshot. */
export async function snapshotFiles(ctx: Context, snap: Snapshot, parse: Parse): Promise<Files> {
  const out: Files = new Map();
  const byPath = new Map(snap.pages.map((p) => [p.path, p]));
  const idToPath = {
    pages: new Map(snap.pages.map((p: any) => [p.id as string, p.path])),
    files: new Map(snap.files.map((f: any) => [f.id as string, f.name])),
  };
  const fileNames = new Set(snap.files.map((f) => f.name));
  for (const p of snap.pages) {
    if (p.group) continue;
    const body = canonicalBody(parse, p.markdown, { path: p.path, hasChildren: p.hasChildren }, (q) => byPath.get(q), fileNames, idToPath);
    out.set(pageFile(p.path, p.hasChildren), Buffer.from(writePageSource({ title: p.title, fields: p.fields, body })));
  }
  const readme = snap.pages.find((p) => p.path === 'README') as { id?: string } | undefined;
  const summaryTree = (nodes: readonly PageNode[], prefix = ''): any[] =>
    nodes
      .filter((n) => n.type !== 'link')
      .map((n) => {
        const path = n.id === readme?.id ? 'README' : prefix ? `${prefix}/${n.slug}` : n.slug;
        return { path, title: n.title, group: n.type === 'group', children: summaryTree(n.pages, path) };
      });
  out.set('SUMMARY.md', Buffer.from(writeSummary(summaryTree(snap.tree))));
  if (!out.has('README.md')) out.set('README.md', Buffer.from(`# ${snap.title}\n`));
  for (const f of snap.files) {
    const bytes = await readBlob(ctx, f.sha);
    if (bytes && !out.has(f.name)) out.set(f.name, bytes);
  }
  return out;
}

/** Records the last sync of a space. */
export function recordSync(tx: WriteTx, ctx: Context, spaceId: string, s: Omit<GitSyncRecord, 'id' | 'space' | 'updatedAt'>): void {
  tx.put(GitSync, { id: spaceId, space: spaceId, ...s, updatedAt: ctx.clock.now().toISOString() });
}

export function readSync(tx: ReadTx, caller: Caller, spaceId: string): GitSyncRecord {
  visibleSpace(tx, caller, spaceId);
  const r = tx.get(GitSync, spaceId);
  if (!r) throw notFound(`space ${spaceId} has never been synced with a Git repository`);
  return r;
}

/** A ref as the spec writes it (`refs/heads/main`); a bare branch name is taken as one. */
export function fullRef(ref: string): string {
  const r = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(r) || r.split('/').some((s) => s === '..' || s === '' || s.startsWith('.') || s.endsWith('.lock')))
    throw invalid(`ref: ${JSON.stringify(ref)} is not a valid Git ref (refs/heads/main)`);
  return r;
}

export const errorMessage = (err: unknown) => (err instanceof DocsError ? err.message : (err as Error).message);
