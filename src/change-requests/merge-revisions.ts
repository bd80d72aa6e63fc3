import { diff3Merge } from 'node-diff3';
import type { ContentRevision, FileEntry, PageNode, ReusableEntry } from '../content/model.js';
import { markdownOf, putMarkdown, readRevision, rootOf, sha256, treeOf } from '../content/revisions.js';
import { flatten } from '../content/tree.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { mergeThreeWay, type PageConflict, type PageSnapshot } from './three-way.js';
import { mergeReusable } from './merge-reusable.js';

// The three-way merge of two revisions of a space from their common base, as merge (the change
// request into the space) and update (the space into the change request) both need it. Pages
// are compared by id through `three-way.ts` (markdown by diff3, metadata field by field, with
// the parent page as a field); sibling order is merged separately by diff3 over the id lists of
// each parent, so adding a page next to a page edited on the other side is no conflict. Files
// merge as whole entries by id. Anything that cannot be reconciled is listed, and nothing is written.

export interface MergeConflict {
  /** content / metadata / deleted / orphaned (three-way.ts); slug: two sibling pages end up with
   * the same slug (their paths would clash); moved: each side moved a page under the other. */
  kind: PageConflict['reason'] | 'slug' | 'moved';
  page?: string;
  file?: string;
  /** The page's title or the file's name, for people. */
  title: string;
  path?: string;
  fields?: string[];
}

export type MergedContent = ({ root: string[] } | { pages: PageNode[] }) & { files: FileEntry[]; reusable: ReusableEntry[] };
export type MergeOutcome = { conflicts: MergeConflict[] } | { content: MergedContent };

const ROOT = '';

/** One revision as the merge sees it. */
interface Side {
  rev: ContentRevision;
  pages: Map<string, PageSnapshot>;
  nodes: Map<string, { node: PageNode; path: string; markdown: string }>;
  /** Parent page id (ROOT for the top level) -> child ids, in order. */
  order: Map<string, string[]>;
  files: Map<string, PageSnapshot>;
}

function sideOf(tx: ReadTx, space: string, revision: string): Side {
  const rev = readRevision(tx, space, revision);
  const side: Side = { rev, pages: new Map(), nodes: new Map(), order: new Map(), files: new Map() };
  for (const l of flatten(treeOf(tx, rev))) {
    // Timestamps are not merged (each edit moves updatedAt): they are carried from the side kept.
    const { pages: _children, content: _hash, createdAt: _c, updatedAt: _u, id, ...fields } = l.node;
    const markdown = markdownOf(tx, space, l.node);
    const parent = l.parent?.id ?? null;
    side.pages.set(id, { markdown, meta: { ...fields, parent } });
    side.nodes.set(id, { node: l.node, path: l.path, markdown });
    const key = parent ?? ROOT;
    side.order.set(key, [...(side.order.get(key) ?? []), id]);
  }
  for (const { id, ...entry } of side.rev.files ?? []) side.files.set(id, { markdown: '', meta: entry });
  return side;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** diff3 over sibling ids; where both sides reordered the same stretch, `into`'s order then `from`'s additions. */
function mergeOrder(base: string[], into: string[], from: string[]): string[] {
  const out: string[] = [];
  for (const chunk of diff3Merge(into, base, from, {}) as { ok?: string[]; conflict?: { a: string[]; b: string[] } }[]) {
    if (chunk.ok) out.push(...chunk.ok);
    else if (chunk.conflict) out.push(...chunk.conflict.a, ...chunk.conflict.b);
  }
  return out;
}

/** Who to name a page or file by: the incoming side's view first, then the receiving side's, then the base's. */
function describer(base: Side, into: Side, from: Side) {
  return (c: { page: string; reason: MergeConflict['kind']; fields?: string[] }, what: 'page' | 'file'): MergeConflict => {
    if (what === 'file') {
      const meta = (from.files.get(c.page) ?? into.files.get(c.page) ?? base.files.get(c.page))?.meta;
      return { kind: c.reason, file: c.page, title: String(meta?.name ?? c.page), ...(c.fields ? { fields: c.fields } : {}) };
    }
    const n = from.nodes.get(c.page) ?? into.nodes.get(c.page) ?? base.nodes.get(c.page);
    return {
      kind: c.reason,
      page: c.page,
      title: n?.node.title ?? c.page,
      ...(n && n.node.type !== 'link' ? { path: n.path } : {}),
      ...(c.fields ? { fields: c.fields } : {}),
    };
  };
}

/**
 * Merges `from` into `into` (revision ids of `space`) from their common ancestor `base`. On
 * success it has stored the merged page bodies (content addressed) and the caller commits the
 * revision; with conflicts it has written nothing.
 */
export function mergeRevisions(tx: WriteTx, now: string, space: string, base: string, into: string, from: string): MergeOutcome {
  // Only one side moved: the result is that side, node for node.
  if (into === base || from === base || into === from) {
    const rev = readRevision(tx, space, into === base ? from : into);
    return { content: { root: rootOf(tx, rev), files: [...(rev.files ?? [])], reusable: [...(rev.reusable ?? [])] } };
  }
  const [b, o, t] = [sideOf(tx, space, base), sideOf(tx, space, into), sideOf(tx, space, from)];
  const describe = describer(b, o, t);
  const pages = mergeThreeWay(b.pages, o.pages, t.pages);
  // Files have no parent: a field name no entry has turns the orphan check off.
  const files = mergeThreeWay(b.files, o.files, t.files, '\0');
  const blocks = mergeReusable(tx, now, b.rev, o.rev, t.rev);
  const conflicts = [
    ...pages.conflicts.map((c) => describe(c, 'page')),
    ...files.conflicts.map((c) => describe(c, 'file')),
    ...('conflicts' in blocks
      ? blocks.conflicts.map((c) => ({ kind: c.reason, page: c.page, title: c.title, ...(c.fields ? { fields: c.fields } : {}) }))
      : []),
  ];
  if (conflicts.length || 'conflicts' in blocks) return { conflicts };
  const tree = buildTree(tx, now, space, pages.pages, b, o, t);
  if (tree.conflicts) return { conflicts: tree.conflicts.map((c) => describe(c, 'page')) };
  // Files in the receiving side's order, then the incoming side's new ones.
  const fileIds = [...new Set([...o.files.keys(), ...t.files.keys()])].filter((id) => files.pages.has(id));
  const fileEntries = fileIds.map((id) => ({ id, ...files.pages.get(id)!.meta }) as unknown as FileEntry);
  blocks.store(tx);
  return { content: { pages: tree.pages, files: fileEntries, reusable: blocks.reusable } };
}

function buildTree(tx: WriteTx, now: string, space: string, merged: Map<string, PageSnapshot>, base: Side, into: Side, from: Side) {
  const parentOf = (id: string) => (merged.get(id)!.meta.parent as string | null) ?? ROOT;
  const children = new Map<string, string[]>();
  const placed = new Set<string>();
  const place = (id: string) => {
    placed.add(id);
    const key = parentOf(id);
    children.set(key, [...(children.get(key) ?? []), id]);
  };
  for (const key of new Set([...base.order.keys(), ...into.order.keys(), ...from.order.keys()])) {
    for (const id of mergeOrder(base.order.get(key) ?? [], into.order.get(key) ?? [], from.order.get(key) ?? [])) {
      if (merged.has(id) && !placed.has(id) && parentOf(id) === key) place(id);
    }
  }
  // A page moved under a parent on one side only is in that side's list for it; this is a safety net.
  for (const id of [...into.nodes.keys(), ...from.nodes.keys()]) if (merged.has(id) && !placed.has(id)) place(id);

  const conflicts: { page: string; reason: MergeConflict['kind'] }[] = [];
  // New bodies are stored only once the merge is known to succeed: a conflict writes nothing.
  const bodies = new Set<string>();
  const visited = new Set<string>();
  const make = (id: string): PageNode => {
    visited.add(id);
    const snap = merged.get(id)!;
    const pages = (children.get(id) ?? []).map(make);
    const kept = [into, from].find((s) => {
      const p = s.pages.get(id);
      return p && p.markdown === snap.markdown && sameJson(p.meta, snap.meta);
    });
    // Unchanged against one side: that side's node as it was (same hash, nothing new stored).
    if (kept) return { ...kept.nodes.get(id)!.node, pages };
    const { parent: _parent, ...fields } = snap.meta;
    const known = into.nodes.get(id) ?? from.nodes.get(id)!;
    let content: string | undefined;
    if (fields.type === 'document') {
      const sameBody = [into, from].map((s) => s.nodes.get(id)).find((n) => n && n.markdown === snap.markdown);
      if (sameBody) content = sameBody.node.content;
      else {
        content = sha256(snap.markdown);
        bodies.add(snap.markdown);
      }
    }
    return { id, ...fields, ...(content !== undefined ? { content } : {}), createdAt: known.node.createdAt, updatedAt: now, pages } as PageNode;
  };
  const pages = (children.get(ROOT) ?? []).map(make);
  // Each side moved a page under the other: neither is reachable from the root any more.
  for (const id of merged.keys()) if (!visited.has(id)) conflicts.push({ page: id, reason: 'moved' });
  // Paths are slugs joined: two siblings with one slug (added or renamed on each side) would clash.
  const walk = (list: PageNode[]) => {
    const seen = new Set<string>();
    for (const p of list) {
      if (seen.has(p.slug)) conflicts.push({ page: p.id, reason: 'slug' });
      seen.add(p.slug);
      walk(p.pages);
    }
  };
  walk(pages);
  if (conflicts.length) return { conflicts, pages: undefined };
  for (const markdown of bodies) putMarkdown(tx, space, markdown);
  return { conflicts: undefined, pages };
}
