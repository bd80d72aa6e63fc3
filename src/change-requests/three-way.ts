import { diff3Merge } from 'node-diff3';

// The three-way merge of a change request, per page, independent of how revisions are stored:
// base = the revision the change request last synced with, ours = the space's current revision,
// theirs = the change request's revision. A page changed on one side only takes that side; a
// page changed on both sides merges its markdown line by line with diff3 and its metadata field
// by field; what cannot be reconciled is a conflict, and a merge with conflicts changes nothing.

/** One page as the merge sees it: its markdown and its other fields (title, slug, parent, position...). */
export interface PageSnapshot {
  markdown: string;
  meta: Record<string, unknown>;
}

export type PageSet = ReadonlyMap<string, PageSnapshot>;

export interface PageConflict {
  page: string;
  /** content: overlapping markdown edits; metadata: the same field set to two values;
   * deleted: deleted on one side, changed on the other; orphaned: its parent is gone. */
  reason: 'content' | 'metadata' | 'deleted' | 'orphaned';
  fields?: string[];
}

export interface MergeResult {
  pages: Map<string, PageSnapshot>;
  conflicts: PageConflict[];
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
const samePage = (a: PageSnapshot | undefined, b: PageSnapshot | undefined) =>
  a === undefined || b === undefined ? a === b : a.markdown === b.markdown && same(a.meta, b.meta);

function mergeMarkdown(base: string, ours: string, theirs: string): string | undefined {
  const lines = (s: string) => s.split('\n');
  const out: string[] = [];
  for (const chunk of diff3Merge(lines(ours), lines(base), lines(theirs))) {
    if ('conflict' in chunk && chunk.conflict) return undefined;
    out.push(...(chunk as { ok: string[] }).ok);
  }
  return out.join('\n');
}

function mergeMeta(base: Record<string, unknown>, ours: Record<string, unknown>, theirs: Record<string, unknown>) {
  const meta: Record<string, unknown> = {};
  const clashes: string[] = [];
  for (const key of new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])) {
    const [b, o, t] = [base[key], ours[key], theirs[key]];
    // `source`, the file a page was pushed from (docs/manual/docs-as-code.md), is derived, not
    // edited: both sides pushing is no clash of its own (their bodies are compared); the merged
    // page keeps neither file, so pull writes it from its content and says so.
    if (key === 'source' && !same(o, t) && !same(t, b) && !same(o, b)) continue;
    const v = same(o, t) || same(t, b) ? o : same(o, b) ? t : (clashes.push(key), o);
    if (v !== undefined) meta[key] = v;
  }
  return { meta, clashes };
}

/** `parentField` names the meta field holding a page's parent page id (null at the root). */
export function mergeThreeWay(base: PageSet, ours: PageSet, theirs: PageSet, parentField = 'parent'): MergeResult {
  const pages = new Map<string, PageSnapshot>();
  const conflicts: PageConflict[] = [];
  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [base.get(id), ours.get(id), theirs.get(id)];
    let merged: PageSnapshot | undefined;
    if (samePage(o, t) || samePage(t, b)) merged = o;
    else if (samePage(o, b)) merged = t;
    else if (!o || !t) {
      conflicts.push({ page: id, reason: 'deleted' });
      continue;
    } else {
      // Changed on both sides (or added on both with different content: an empty base).
      const markdown = mergeMarkdown(b?.markdown ?? '', o.markdown, t.markdown);
      const { meta, clashes } = mergeMeta(b?.meta ?? {}, o.meta, t.meta);
      if (markdown === undefined) conflicts.push({ page: id, reason: 'content' });
      if (clashes.length) conflicts.push({ page: id, reason: 'metadata', fields: clashes });
      if (markdown === undefined || clashes.length) continue;
      merged = { markdown, meta };
    }
    if (merged) pages.set(id, merged);
  }
  // A page kept on one side whose parent the other side deleted would be lost from the tree.
  for (const [id, page] of pages) {
    const parent = page.meta[parentField];
    if (typeof parent === 'string' && !pages.has(parent) && !conflicts.some((c) => c.page === parent)) conflicts.push({ page: id, reason: 'orphaned' });
  }
  return conflicts.length ? { pages: new Map(), conflicts } : { pages, conflicts };
}
