import { readChangeRequest } from '../change-requests/service.js';
import type { ContentRevision, FileEntry, PageNode } from '../content/model.js';
import { markdownOf, readRevision, sha256, treeOf } from '../content/revisions.js';
import { flatten, type Located } from '../content/tree.js';
import type { Caller } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { slugify } from '../kernel/slug.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx } from '../store/port.js';
import type { PdfPage } from './render.js';

// What a PDF export contains, read in one transaction: the pages of a revision in tree order
// (all of them, one page with its subpages, or one page alone), their markdown, the revision's
// files (for images), and the key naming the rendered file.

/** Bumped when the rendering changes, so PDFs rendered by an older version are not reused. */
export const RENDER_VERSION = 1;

export interface PdfSelection {
  /** `only=true`: just the page named by `page`. */
  only?: boolean;
  /** A page id: that page (and, unless `only`, its subpages); absent: every page. */
  page?: string;
}

export interface PdfSource {
  space: string;
  title: string;
  pages: PdfPage[];
  files: readonly FileEntry[];
  /** Names the rendered file: a hash of everything the bytes depend on. */
  key: string;
  /** The download's file name. */
  name: string;
}

function selectPages(tree: readonly PageNode[], sel: PdfSelection, where: string): Located[] {
  const all = flatten(tree);
  if (sel.only && sel.page === undefined) throw invalid('page: required when only is true (only prints the page it names)');
  if (sel.page === undefined) return all;
  const at = all.findIndex((l) => l.node.id === sel.page);
  if (at === -1) throw notFound(`page ${sel.page} not found in ${where}`);
  if (sel.only) return [all[at]!];
  // Its subpages follow it in tree order, up to the next page that is not below it.
  const depth = all[at]!.ancestors.length;
  let end = at + 1;
  while (end < all.length && all[end]!.ancestors.length > depth) end++;
  return all.slice(at, end);
}

function noteOf(node: PageNode, titles: Map<string, string>): string | undefined {
  if (node.type !== 'link') return node.description || undefined;
  const t = node.target;
  if (t?.kind === 'page') return `Link to page: ${titles.get(t.page) ?? t.page}`;
  if (t?.kind === 'anchor') return `Link to page: ${titles.get(t.page) ?? t.page} (#${t.anchor})`;
  if (t?.kind === 'file') return `Link to file: ${t.file}`;
  return `Link: ${t?.url ?? node.href ?? ''}`;
}

function sourceOf(tx: ReadTx, spaceId: string, rev: ContentRevision, sel: PdfSelection, o: { title: string; name: string; where: string }): PdfSource {
  const tree = treeOf(tx, rev);
  const picked = selectPages(tree, sel, o.where);
  const titles = new Map(flatten(tree).map((l) => [l.node.id, l.node.title]));
  const base = picked[0]?.ancestors.length ?? 0;
  const pages = picked.map((l): PdfPage => {
    const note = noteOf(l.node, titles);
    return { id: l.node.id, title: l.node.title, depth: l.ancestors.length - base, markdown: markdownOf(tx, spaceId, l.node), ...(note ? { note } : {}) };
  });
  const name = `${o.name}${sel.page && pages[0] ? `-${slugify(pages[0].title, 40, 'page')}` : ''}.pdf`;
  // Revisions are immutable: the revision id and the selection name the content exactly.
  const key = sha256(JSON.stringify([RENDER_VERSION, spaceId, rev.id, sel.page ?? null, !!sel.only, o.title, name]));
  return { space: spaceId, title: o.title, pages, files: rev.files ?? [], key, name };
}

/** The space's current revision; needs read access to the space. */
export function spaceSource(tx: ReadTx, caller: Caller, spaceId: string, sel: PdfSelection): PdfSource {
  const { row: space } = visibleSpace(tx, caller, spaceId);
  const rev = readRevision(tx, space.id, space.revision);
  return sourceOf(tx, space.id, rev, sel, { title: space.title, name: slugify(space.title, 60, 'space'), where: `space ${space.id}` });
}

/** A change request's revision (whatever its status); needs read access to its space. */
export function changeRequestSource(tx: ReadTx, caller: Caller, spaceId: string, crId: string, sel: PdfSelection): PdfSource {
  const { space, cr } = readChangeRequest(tx, caller, spaceId, crId);
  const rev = readRevision(tx, space.id, cr.revision);
  const title = `${space.title}: change request #${cr.number}${cr.subject ? ` ${cr.subject}` : ''}`;
  return sourceOf(tx, space.id, rev, sel, { title, name: `${slugify(space.title, 60, 'space')}-cr-${cr.number}`, where: `change request ${cr.number}` });
}
