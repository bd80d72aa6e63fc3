import type { ContentRevision, ReusableEntry } from '../content/model.js';
import { putMarkdown, sha256 } from '../content/revisions.js';
import { reusableMarkdown } from '../content/reusable.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { mergeThreeWay, type PageConflict, type PageSnapshot } from './three-way.js';

// The reusable content of a merge (docs/manual/reusable-content.md#merging): blocks are merged
// like pages by id, their markdown line by line (diff3) and their title as a field; a block edited
// on both sides in the same lines, or deleted on one side and edited on the other, is a conflict.

const snapshots = (tx: ReadTx, rev: ContentRevision) =>
  new Map<string, PageSnapshot>((rev.reusable ?? []).map((b) => [b.id, { markdown: reusableMarkdown(tx, rev.space, b), meta: { title: b.title } }]));

export function mergeReusable(
  tx: ReadTx,
  now: string,
  base: ContentRevision,
  into: ContentRevision,
  from: ContentRevision,
): { conflicts: (PageConflict & { title: string })[] } | { reusable: ReusableEntry[]; store: (tx: WriteTx) => void } {
  const [b, o, t] = [snapshots(tx, base), snapshots(tx, into), snapshots(tx, from)];
  // A field name no block has turns the orphan check off (blocks have no parent).
  const merged = mergeThreeWay(b, o, t, '\0');
  const known = new Map([...(base.reusable ?? []), ...(from.reusable ?? []), ...(into.reusable ?? [])].map((x) => [x.id, x]));
  if (merged.conflicts.length) return { conflicts: merged.conflicts.map((c) => ({ ...c, title: known.get(c.page)?.title ?? c.page })) };
  const bodies: string[] = [];
  const ids = [...new Set([...o.keys(), ...t.keys()])].filter((id) => merged.pages.has(id));
  const reusable = ids.map((id) => {
    const snap = merged.pages.get(id)!;
    const was = known.get(id)!;
    const side = [into, from].flatMap((r) => r.reusable ?? []).find((x) => x.id === id && x.title === snap.meta.title && sha256(snap.markdown) === x.content);
    if (side) return side;
    bodies.push(snap.markdown);
    return { ...was, title: String(snap.meta.title), content: sha256(snap.markdown), updatedAt: now };
  });
  // New bodies are stored only once the whole merge is known to succeed.
  return { reusable, store: (w) => bodies.forEach((md) => putMarkdown(w, into.space, md)) };
}
