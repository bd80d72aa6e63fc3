import type { Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import type { ContentRevision, FileEntry, PageNode } from '../content/model.js';
import { presentFile } from '../content/present.js';
import { markdownOf, readRevision, treeOf } from '../content/revisions.js';
import { flatten, type Located } from '../content/tree.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import type { ChangeRequestRecord } from './model.js';

// The semantic changes of a change request (getChangeRequestChanges): its revision compared with
// its base (the space revision it last synced with: `revisionMergedAncestor`, else
// `revisionInitial`), page by page and file by file, in the contract's RevisionSemanticChange
// shapes. Pages come in the change request's tree order (created, edited, moved), then deleted
// pages in the base's order, then files by name. A page both edited and moved gives two changes.
// Page fields the contract has no attribute for (hidden, icon, noIndex...) are not reported.

type Change = Record<string, unknown>;

const pageRef = (l: Located) => ({ id: l.node.id, type: l.node.type, title: l.node.title, path: l.path });
const str = (before: string | undefined, after: string | undefined) => ({
  ...(before !== undefined ? { before } : {}),
  ...(after !== undefined ? { after } : {}),
});
const target = (n: PageNode) => n.target ?? (n.href !== undefined ? { kind: 'url' as const, url: n.href } : undefined);

function pageAttributes(tx: ReadTx, space: string, b: PageNode, a: PageNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const field = (name: 'title' | 'emoji' | 'slug' | 'description') => {
    if ((b[name] ?? '') !== (a[name] ?? '')) out[name] = str(b[name], a[name]);
  };
  field('title');
  field('emoji');
  if (a.type === 'document' || a.type === 'group') field('slug');
  if (a.type === 'document') {
    field('description');
    if (b.content !== a.content) out.document = str(markdownOf(tx, space, b), markdownOf(tx, space, a));
  }
  if (a.type === 'link') {
    const [tb, ta] = [target(b), target(a)];
    if (JSON.stringify(tb) !== JSON.stringify(ta)) out.target = { ...(tb ? { before: tb } : {}), ...(ta ? { after: ta } : {}) };
  }
  return out;
}

function fileAttributes(ctx: Context, space: SpaceRecord, b: FileEntry, a: FileEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (b.name !== a.name) out.name = str(b.name, a.name);
  if (b.contentType !== a.contentType) out.contentType = str(b.contentType, a.contentType);
  if (b.size !== a.size) out.size = { before: b.size, after: a.size };
  if (b.sha !== a.sha) out.downloadURL = str(presentFile(ctx, space, b).downloadURL, presentFile(ctx, space, a).downloadURL);
  if (JSON.stringify(b.dimensions) !== JSON.stringify(a.dimensions))
    out.dimensions = { ...(b.dimensions ? { before: b.dimensions } : {}), ...(a.dimensions ? { after: a.dimensions } : {}) };
  return out;
}

/** Every change from revision `base` to revision `head` of the space. */
export function diffRevisions(ctx: Context, tx: ReadTx, space: SpaceRecord, base: ContentRevision, head: ContentRevision): Change[] {
  const before = new Map(flatten(treeOf(tx, base)).map((l) => [l.node.id, l]));
  const after = flatten(treeOf(tx, head));
  const afterById = new Map(after.map((l) => [l.node.id, l]));
  const changes: Change[] = [];
  for (const l of after) {
    const was = before.get(l.node.id);
    if (!was) {
      changes.push({ type: 'page_created', page: pageRef(l) });
      continue;
    }
    // A page that changed kind (document to link...) is reported by the attributes of its new kind.
    const attributes = pageAttributes(tx, space.id, was.node, l.node);
    if (Object.keys(attributes).length) changes.push({ type: 'page_edited', page: pageRef(l), attributes });
    if ((was.parent?.id ?? null) !== (l.parent?.id ?? null)) {
      // A page moved to or from the root has no parent on that side.
      const pb = was.parent && before.get(was.parent.id);
      const pa = l.parent && afterById.get(l.parent.id);
      changes.push({ type: 'page_moved', page: pageRef(l), parent: { ...(pb ? { before: pageRef(pb) } : {}), ...(pa ? { after: pageRef(pa) } : {}) } });
    }
  }
  for (const [id, l] of before) if (!afterById.has(id)) changes.push({ type: 'page_deleted', page: pageRef(l) });
  const oldFiles = new Map((base.files ?? []).map((f) => [f.id, f]));
  const newFiles = [...(head.files ?? [])].sort((x, y) => x.name.localeCompare(y.name) || x.id.localeCompare(y.id));
  const file = (f: FileEntry) => {
    const p = presentFile(ctx, space, f);
    return { id: p.id, name: p.name, contentType: p.contentType, downloadURL: p.downloadURL };
  };
  for (const f of newFiles) {
    const was = oldFiles.get(f.id);
    if (!was) changes.push({ type: 'file_created', file: file(f) });
    else {
      const attributes = fileAttributes(ctx, space, was, f);
      if (Object.keys(attributes).length) changes.push({ type: 'file_edited', file: file(f), attributes });
    }
  }
  const kept = new Set(newFiles.map((f) => f.id));
  for (const f of [...oldFiles.values()].sort((x, y) => x.name.localeCompare(y.name)))
    if (!kept.has(f.id)) changes.push({ type: 'file_deleted', file: file(f) });
  return changes;
}

/** `{changes, more?}`: the first `limit` changes of the change request (default 10). */
export function changeRequestChanges(ctx: Context, tx: ReadTx, space: SpaceRecord, cr: ChangeRequestRecord, limit = 10) {
  checkLimit(limit);
  const base = readRevision(tx, space.id, cr.revisionMergedAncestor ?? cr.revisionInitial);
  return limited(diffRevisions(ctx, tx, space, base, readRevision(tx, space.id, cr.revision)), limit);
}

/**
 * What a revision brought in (getRevisionSemanticChanges): the difference with its first parent,
 * the revision it was made on (a merge revision's first parent is the space's content before the
 * merge). The space's first revision has none: everything in it is new.
 */
export function revisionChanges(ctx: Context, tx: ReadTx, space: SpaceRecord, rev: ContentRevision, limit = 10) {
  checkLimit(limit);
  const parent = rev.parents[0];
  const base: ContentRevision = parent ? readRevision(tx, space.id, parent) : { ...rev, id: `${rev.id}^`, rootNode: undefined, root: [], files: [] };
  return limited(diffRevisions(ctx, tx, space, base, rev), limit);
}

function checkLimit(limit: number) {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalid('limit: must be an integer from 1 to 1000');
}

const limited = (all: Change[], limit: number) => ({ changes: all.slice(0, limit), ...(all.length > limit ? { more: all.length - limit } : {}) });
