import { readPageSource } from '../documents/page-source.js';
import { recordSourceLinks } from './push-context.js';
import { documentToMarkdown } from '../documents/markdown.js';
import type { Context } from '../kernel/context.js';
import { invalid } from '../kernel/errors.js';
import { MAX_PAGE_BYTES } from '../kernel/limits.js';
import { newId } from '../kernel/ids.js';
import type { WriteTx } from '../store/port.js';
import { canonicalLinks, canonicalLinksIndexed, makeResolver, type Parse } from './link-refs.js';
import type { FileEntry, MetaLinkTarget, PageMetaLinks, PageNode, ReusableEntry } from './model.js';
import { anchorProblem, linkUrlProblem } from './link-pages.js';
import { canonicalIncludes, findIncludes, resolveInclude } from './reusable.js';
import { editableTree, pageOf, putMarkdown, readRevision } from './revisions.js';
import { flatten, slugify } from './tree.js';

// updateChangeRequestContent: a batch of 1..50 changes applied in order to a private copy of
// the change request's page tree, then committed as one new revision (by
// src/change-requests/authoring.ts, which finds the change request); the first failing change
// rejects the whole batch with a 400 naming it (`changes[3]: ...`), and nothing is written.
// The copy is copy on write and pages are found through the revision's page index (tree.ts
// EditableTree): a batch costs the pages it touches and their ancestors, not the space's size.

/** A file of an insert_files change, already decoded and stored as a blob by the handler. */
export interface UploadedFile {
  ref?: string;
  name: string;
  contentType: string;
  size: number;
  sha: string;
  dimensions?: { width: number; height: number };
}

export type Outcome =
  | { object: 'created_page'; ref?: string; page: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

const META = ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition'] as const;

function bodyOf(doc: any): { markdown?: string } {
  if (!doc || typeof doc !== 'object') return {};
  if (typeof doc.markdown === 'string') return { markdown: doc.markdown };
  if (doc.document) return { markdown: documentToMarkdown(doc.document) };
  return { markdown: '' };
}

const MAX_ALTERNATES = 50;

/**
 * A page's meta links as a batch gives them (`metaLinks`, an extension of insert_page and
 * update_page): `{canonical?, alternates?}`, each target `{kind: "url", url}` (http or https) or
 * `{kind: "page", page, space?}`; null or `{}` clears them. docs/manual/content.md#meta-links.
 */
function metaLinksOf(v: any, where: string): PageMetaLinks | undefined {
  if (v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid(`${where}: must be an object {canonical?, alternates?} or null`);
  for (const k of Object.keys(v)) if (k !== 'canonical' && k !== 'alternates') throw invalid(`${where}.${k}: unknown field (canonical, alternates)`);
  const target = (t: any, at: string): MetaLinkTarget => {
    if (t?.kind === 'url' && typeof t.url === 'string' && Object.keys(t).length === 2) {
      const bad = linkUrlProblem(t.url) ?? (/^https?:/i.test(t.url) ? undefined : 'a meta link leads to an http or https URL');
      if (bad) throw invalid(`${at}.url: ${bad}`);
      return { kind: 'url', url: t.url };
    }
    if (t?.kind === 'page' && typeof t.page === 'string' && (t.space === undefined || typeof t.space === 'string')) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(t.page) || (t.space !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(t.space)))
        throw invalid(`${at}: a page target names a page (and a space) by id`);
      if (Object.keys(t).some((k) => k !== 'kind' && k !== 'page' && k !== 'space')) throw invalid(`${at}: a page target has kind, page and space only`);
      return { kind: 'page', page: t.page, ...(t.space !== undefined ? { space: t.space } : {}) };
    }
    throw invalid(`${at}: must be {kind: "url", url} or {kind: "page", page, space?}`);
  };
  const out: PageMetaLinks = {};
  if (v.canonical !== undefined && v.canonical !== null) out.canonical = target(v.canonical, `${where}.canonical`);
  if (v.alternates !== undefined && v.alternates !== null) {
    if (!Array.isArray(v.alternates)) throw invalid(`${where}.alternates: must be a list`);
    if (v.alternates.length > MAX_ALTERNATES) throw invalid(`${where}.alternates: at most ${MAX_ALTERNATES}`);
    if (v.alternates.length) out.alternates = v.alternates.map((t: any, i: number) => target(t, `${where}.alternates[${i}]`));
  }
  return out.canonical || out.alternates ? out : undefined;
}

/** The `source` of a change (an extension): the file its markdown was made from, kept for pulls. */
function sourceOf(c: any, where: string): string | undefined {
  if (c.source === undefined) return undefined;
  if (typeof c.source !== 'string') throw invalid(`${where}.source: must be a string (the file the markdown was made from)`);
  if (Buffer.byteLength(c.source) > 2 * 1024 * 1024) throw invalid(`${where}.source: at most 2 MB`);
  return c.source;
}

/** Applies a batch to a copy of revision `from`'s tree; the caller commits the result. */
export function runBatch(
  tx: WriteTx,
  ctx: Context,
  spaceId: string,
  from: string,
  revertBase: string,
  changes: any[],
  uploads: Map<number, UploadedFile[]>,
  parse: Parse,
  /** Internal callers (templates): a taken slug gets a number instead of failing. */
  internal = false,
) {
  const base = readRevision(tx, spaceId, from);
  const tree = editableTree(tx, base);
  const files: FileEntry[] = [...(base.files ?? [])];
  const now = ctx.clock.now().toISOString();
  // Bodies touched by the batch, resolved (links) and stored once at the end.
  const bodies = new Map<string, string>();
  // Sources (the files bodies were made from, docs content push) of the pages of this batch.
  const sources = new Map<string, string | undefined>();
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const outcomes = new Map<string, Outcome>();
  const inserted: FileEntry[] = [];
  // Reusable content (docs/manual/reusable-content.md#writing-it): a copy of the revision's
  // blocks, edited by insert_page `type: "reusable-content"` and by update/delete/revert_page
  // naming a block's id; bodies stored once at the end, like pages'.
  const reusable: ReusableEntry[] = (base.reusable ?? []).map((b) => ({ ...b }));
  const reusableBodies = new Map<string, { markdown: string; where: string }>();
  const reusableRefs = new Map<string, string>();
  const whereOf = new Map<string, string>();
  const isBlock = (id: unknown) => typeof id === 'string' && reusable.some((b) => b.id === id);
  const blockTitle = (meta: any, where: string) => {
    const t = String(meta.title ?? '').trim();
    if (typeof meta.title !== 'string' || !t || t.length > 256) throw invalid(`${where}.title: a reusable content needs a title of 1 to 256 characters`);
    return t;
  };
  const PAGE_ONLY = ['into', 'at', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition', 'metaLinks'] as const;
  const noPageFields = (c: any, meta: any, where: string) => {
    for (const k of PAGE_ONLY)
      if (c[k] !== undefined || meta[k] !== undefined) throw invalid(`${where}.${k}: a reusable content has no ${k} (it is not a page)`);
  };

  /**
   * A link page's target (an extension of insert_page/update_page: GitBook's InputPageLink has
   * one): a ContentRef of kind url, to the web or mail only (link-pages.ts); or of kind page or
   * anchor, to a document page of this space's content: its id, or the `ref` of a page inserted in
   * the same batch. The page is checked against the batch's final tree (it may come later in it).
   */
  const pageTargets: { node: PageNode; where: string }[] = [];
  const linkTarget = (t: any, where: string): NonNullable<PageNode['target']> => {
    if (t && typeof t === 'object' && (t.kind === 'page' || t.kind === 'anchor')) {
      if (typeof t.page !== 'string' || !t.page) throw invalid(`${where}.target.page: a link page to a page names it (its id, or a ref of this batch)`);
      if (t.space !== undefined && t.space !== spaceId) throw invalid(`${where}.target.space: a link page leads to a page of its own space (${spaceId}) only`);
      for (const k of Object.keys(t))
        if (!['kind', 'page', 'space', ...(t.kind === 'anchor' ? ['anchor'] : [])].includes(k))
          throw invalid(`${where}.target.${k}: not a field of a ${t.kind} target`);
      if (t.kind === 'page') return { kind: 'page', page: t.page };
      const bad = typeof t.anchor === 'string' ? anchorProblem(t.anchor) : 'required (a string)';
      if (bad) throw invalid(`${where}.target.anchor: ${bad}`);
      return { kind: 'anchor', page: t.page, anchor: t.anchor };
    }
    if (!t || typeof t !== 'object' || t.kind !== 'url' || typeof t.url !== 'string')
      throw invalid(`${where}.target: a link page needs a target {kind: "url", url: "https://..."} or {kind: "page" | "anchor", page, anchor}`);
    const bad = linkUrlProblem(t.url);
    if (bad) throw invalid(`${where}.target.url: ${bad}`);
    return { kind: 'url', url: t.url };
  };
  const setTarget = (node: PageNode, target: NonNullable<PageNode['target']>, where: string) => {
    node.target = target;
    if (target.kind === 'url') node.href = target.url;
    else {
      delete node.href;
      pageTargets.push({ node, where });
    }
  };

  const applyMeta = (node: PageNode, input: any, where: string, siblings: PageNode[]) => {
    for (const k of META) {
      const v = input[k];
      if (v === undefined) continue;
      // A link page's slug is its id (set at insert): it is in no URL, and never takes a page's.
      if (k === 'slug' && node.type === 'link') throw invalid(`${where}.slug: a link page has no slug`);
      // Frontmatter is free YAML: the schema could not check these types.
      const want = k === 'hidden' || k === 'noIndex' || k === 'noRobotsIndex' ? 'boolean' : 'string';
      if (typeof v !== want) throw invalid(`${where}.${k}: must be a ${want}`);
      if ((k === 'description' && v.length > 1000) || ((k === 'emoji' || k === 'icon') && v.length > 50))
        throw invalid(`${where}.${k}: too long (${k === 'description' ? 1000 : 50} characters at most)`);
      if (k === 'title') {
        const t = String(v).trim();
        if (!t || t.length > 256) throw invalid(`${where}.title: must be 1 to 256 characters`);
        node.title = t;
      } else if (k === 'slug') {
        // A slug is a path segment on disk too (docs content pull): the pattern leaves out ".",
        // "..", "/", "\" and control characters; the length was promised and is now held.
        if (v.length > 100 || !/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/i.test(v))
          throw invalid(`${where}.slug: must be letters and digits in groups joined by - _ or . (1 to 100)`);
        node.slug = v;
      } else if ((k === 'emoji' || k === 'icon' || k === 'condition') && v === '') delete node[k];
      else (node as any)[k] = v;
    }
    if (input.metaLinks !== undefined) {
      if (node.type === 'link') throw invalid(`${where}.metaLinks: a link page is not a page of its own (it has no meta links)`);
      const links = metaLinksOf(input.metaLinks, `${where}.metaLinks`);
      // A page of this space is named by its id, or by the ref of a page inserted earlier in the batch.
      const local = (t: MetaLinkTarget, at: string): MetaLinkTarget => {
        if (t.kind !== 'page' || t.space !== undefined) return t;
        const id = tree.has(t.page) ? t.page : pageRefs.get(t.page);
        if (!id) throw invalid(`${at}.page: no page ${t.page} in this change request`);
        return { kind: 'page', page: id };
      };
      if (links?.canonical) links.canonical = local(links.canonical, `${where}.metaLinks.canonical`);
      if (links?.alternates) links.alternates = links.alternates.map((t, i) => local(t, `${where}.metaLinks.alternates[${i}]`));
      if (links) node.metaLinks = links;
      else delete node.metaLinks;
    }
    if (input.slug === undefined && input.__slugFromTitle && node.type !== 'link') node.slug = slugify(node.title);
    if (internal) for (let n = 2, stem = node.slug; siblings.some((s) => s !== node && s.slug === node.slug); n++) node.slug = `${stem}-${n}`;
    const clash = siblings.find((s) => s !== node && s.slug === node.slug);
    if (clash) throw invalid(`${where}.slug: "${node.slug}" is already used by sibling page ${clash.id}`);
  };

  /** Metadata from the change, overridden by the markdown's frontmatter and leading heading. */
  const withSource = (c: any, where: string) => {
    const body = bodyOf(c.document);
    if (body.markdown !== undefined && body.markdown.length > MAX_PAGE_BYTES / 3 && Buffer.byteLength(body.markdown) > MAX_PAGE_BYTES) {
      throw invalid(
        `${where}.document: the page's markdown is ${Buffer.byteLength(body.markdown)} bytes; a page is at most ${MAX_PAGE_BYTES} bytes (2 MiB): split it into pages`,
      );
    }
    if (body.markdown === undefined || c.document?.document) return { meta: c, markdown: body.markdown };
    let src;
    try {
      src = readPageSource(body.markdown);
    } catch (err) {
      throw invalid(`${where}.document.markdown: ${(err as Error).message}`);
    }
    return { meta: { ...c, ...src.fields, ...(src.title ? { title: src.title } : {}) }, markdown: src.body };
  };

  const place = (node: PageNode, into: string | null, at: number | undefined, where: string) => {
    // `into` may also name a page inserted earlier in this batch by its `ref` (an extension:
    // without it, a new page could not get new children in the same batch).
    if (into !== null && !tree.has(into) && pageRefs.has(into)) into = pageRefs.get(into)!;
    const parent = into === null ? undefined : tree.node(into);
    if (into !== null && !parent) throw invalid(`${where}.into: no page ${into} in this change request`);
    if (parent?.type === 'link') throw invalid(`${where}.into: page ${into} is a link page and cannot hold pages`);
    // Both specs list a group only among a revision's top-level pages (RevisionPageGroup is not a
    // child type): one placed lower would make every read of the tree invalid.
    if (parent && node.type === 'group') throw invalid(`${where}.into: a group page stays at the top level of the space`);
    const siblings = tree.childrenOf(into);
    if (at !== undefined && at > siblings.length) throw invalid(`${where}.at: must be at most ${siblings.length} (the number of pages there)`);
    tree.insert(node, into, at ?? siblings.length);
    return siblings;
  };

  changes.forEach((c, i) => {
    const where = `changes[${i}]`;
    switch (c.operation) {
      case 'insert_page': {
        if (c.type === 'reusable-content') {
          const { meta, markdown } = withSource(c, where);
          noPageFields(c, meta, where);
          const entry: ReusableEntry = { id: newId(), title: blockTitle(meta, where), content: '', createdAt: now, updatedAt: now };
          if (c.ref !== undefined) {
            if (pageRefs.has(c.ref) || fileRefs.has(c.ref) || reusableRefs.has(c.ref)) throw invalid(`${where}.ref: "${c.ref}" is already used in this batch`);
            reusableRefs.set(c.ref, entry.id);
          }
          reusable.push(entry);
          reusableBodies.set(entry.id, { markdown: markdown ?? '', where });
          outcomes.set(entry.id, { object: 'created_page', ...(c.ref !== undefined ? { ref: c.ref } : {}), page: entry.id });
          break;
        }
        // A group page (an extension: `type: "group"`; GitBook's SUMMARY.md `## Heading`): a
        // title and subpages, no document.
        // A link page (`type: "link"`, an extension; GitBook's SUMMARY.md `* [Title](https://...)`):
        // a title and a target, no document, no subpages (docs/manual/docs-as-code.md#link-pages).
        const group = c.type === 'group';
        const link = c.type === 'link';
        if (c.type !== undefined && c.type !== 'group' && c.type !== 'document' && c.type !== 'link')
          throw invalid(`${where}.type: must be document, group or link`);
        if ((group || link) && typeof c.document?.markdown === 'string' && c.document.markdown.trim())
          throw invalid(`${where}.document: a ${c.type} page has no document`);
        if (!link && c.target !== undefined) throw invalid(`${where}.target: only a link page (type: "link") has a target`);
        const target = link ? linkTarget(c.target, where) : undefined;
        const { meta, markdown } = group || link ? { meta: c, markdown: undefined } : withSource(c, where);
        const id = newId();
        const node: PageNode = {
          id,
          type: group ? 'group' : link ? 'link' : 'document',
          title: 'Untitled',
          slug: link ? `~${id}` : '',
          createdAt: now,
          updatedAt: now,
          pages: [],
        };
        if (target) setTarget(node, target, where);
        const siblings = place(node, c.into ?? null, c.at, where);
        if (c.ref !== undefined) {
          if (pageRefs.has(c.ref) || fileRefs.has(c.ref)) throw invalid(`${where}.ref: "${c.ref}" is already used in this batch`);
          pageRefs.set(c.ref, node.id);
        }
        applyMeta(node, { ...meta, __slugFromTitle: meta.slug === undefined }, where, siblings);
        if (!group && !link) {
          bodies.set(node.id, markdown ?? '');
          whereOf.set(node.id, where);
          sources.set(node.id, sourceOf(c, where));
        }
        outcomes.set(node.id, { object: 'created_page', ...(c.ref !== undefined ? { ref: c.ref } : {}), page: node.id });
        break;
      }
      case 'update_page': {
        if (isBlock(c.page) && !tree.has(c.page)) {
          const { meta, markdown } = withSource(c, where);
          noPageFields(c, meta, where);
          const entry = reusable.find((b) => b.id === c.page)!;
          if (meta.title !== undefined) entry.title = blockTitle(meta, where);
          if (markdown !== undefined) reusableBodies.set(entry.id, { markdown, where });
          entry.updatedAt = now;
          if (!outcomes.has(entry.id)) outcomes.set(entry.id, { object: 'updated_page', page: entry.id });
          break;
        }
        if (!tree.has(c.page)) throw invalid(`${where}.page: no page ${c.page} in this change request`);
        const kind = tree.node(c.page)!.type;
        const { meta, markdown } = kind === 'link' ? { meta: c, markdown: undefined } : withSource(c, where);
        if (kind === 'link' && c.document !== undefined) throw invalid(`${where}.document: page ${c.page} is a link page and has no document`);
        if (c.target !== undefined && kind !== 'link') throw invalid(`${where}.target: page ${c.page} is a ${kind} page; only a link page has a target`);
        const node = tree.edit(c.page);
        if (c.target !== undefined) {
          setTarget(node, linkTarget(c.target, where), where);
        }
        const parent = tree.parentOf(node.id)!;
        let siblings = tree.childrenOf(parent);
        if (c.into !== undefined || c.at !== undefined) {
          const into: string | null = c.into === undefined ? parent : c.into;
          if (into !== null && tree.within(node.id, pageRefs.get(into) ?? into))
            throw invalid(`${where}.into: a page cannot move into itself or one of its subpages`);
          tree.detach(node.id);
          siblings = place(node, into, c.at, where);
        }
        applyMeta(node, meta, where, siblings);
        if (markdown !== undefined) {
          if (node.type !== 'document') throw invalid(`${where}.document: page ${node.id} is a ${node.type} page and has no document`);
          bodies.set(node.id, markdown);
          whereOf.set(node.id, where);
          sources.set(node.id, sourceOf(c, where));
        }
        node.updatedAt = now;
        if (!outcomes.has(node.id)) outcomes.set(node.id, { object: 'updated_page', page: node.id });
        break;
      }
      case 'delete_page': {
        if (isBlock(c.page) && !tree.has(c.page)) {
          reusable.splice(
            reusable.findIndex((b) => b.id === c.page),
            1,
          );
          reusableBodies.delete(c.page);
          if (outcomes.get(c.page)?.object === 'created_page') outcomes.delete(c.page);
          else outcomes.set(c.page, { object: 'deleted_page', page: c.page });
          break;
        }
        const gone = tree.remove(c.page);
        if (!gone) throw invalid(`${where}.page: no page ${c.page} in this change request`);
        for (const l of flatten([gone])) {
          bodies.delete(l.node.id);
          const prev = outcomes.get(l.node.id);
          if (prev?.object === 'created_page') outcomes.delete(l.node.id);
          else outcomes.set(l.node.id, { object: 'deleted_page', page: l.node.id });
        }
        break;
      }
      case 'revert_page': {
        if (c.block !== undefined) throw invalid(`${where}.block: reverting single blocks is not available on this server; revert the whole page`);
        const target = readRevision(tx, spaceId, c.revision ?? revertBase);
        const thenBlock = (target.reusable ?? []).find((b) => b.id === c.page);
        if (thenBlock || (isBlock(c.page) && !tree.has(c.page))) {
          const at = reusable.findIndex((b) => b.id === c.page);
          if (at >= 0) reusable.splice(at, 1, ...(thenBlock ? [{ ...thenBlock }] : []));
          else if (thenBlock) reusable.push({ ...thenBlock });
          reusableBodies.delete(c.page);
          outcomes.set(c.page, { object: !thenBlock ? 'deleted_page' : at >= 0 ? 'updated_page' : 'created_page', page: c.page } as Outcome);
          break;
        }
        const then = pageOf(tx, target, c.page);
        const current = tree.node(c.page);
        if (!then && !current) throw invalid(`${where}.page: no page ${c.page} in this change request or in revision ${target.id}`);
        if (!then) {
          tree.remove(c.page);
          outcomes.set(c.page, { object: 'deleted_page', page: c.page });
          break;
        }
        // The page's own fields as they were (its subpages are the current ones, or none).
        const restored: PageNode = { ...then.node, pages: current ? [...current.pages] : [] };
        if (then.node.target) restored.target = { ...then.node.target };
        if (current) tree.replace(restored);
        else {
          const parent = then.parent !== null && tree.has(then.parent) ? then.parent : null;
          place(restored, parent, undefined, where);
        }
        bodies.delete(c.page);
        outcomes.set(c.page, { object: current ? 'updated_page' : 'created_page', page: c.page } as Outcome);
        break;
      }
      case 'insert_files': {
        for (const [j, f] of (uploads.get(i) ?? []).entries()) {
          const entry: FileEntry = {
            id: newId(),
            name: f.name,
            contentType: f.contentType,
            size: f.size,
            sha: f.sha,
            ...(f.dimensions ? { dimensions: f.dimensions } : {}),
          };
          if (f.ref !== undefined) {
            if (pageRefs.has(f.ref) || fileRefs.has(f.ref)) throw invalid(`${where}.files[${j}].ref: "${f.ref}" is already used in this batch`);
            fileRefs.set(f.ref, entry.id);
          }
          files.push(entry);
          inserted.push(entry);
        }
        break;
      }
      default:
        throw invalid(`${where}.operation: unknown operation ${c.operation}`);
    }
  });

  // Link pages to a page: against the final tree too (a ref of the batch becomes the page's id).
  for (const { node, where } of pageTargets) {
    const t = node.target;
    if (!t || (t.kind !== 'page' && t.kind !== 'anchor') || !tree.has(node.id) || tree.node(node.id)?.target !== t) continue;
    const id = tree.has(t.page) ? t.page : (pageRefs.get(t.page) ?? t.page);
    const to = tree.node(id);
    if (!to) throw invalid(`${where}.target.page: no page ${t.page} in this change request`);
    if (to.type !== 'document') throw invalid(`${where}.target.page: page ${t.page} is a ${to.type} page; a link page leads to a document page`);
    if (id !== t.page) tree.edit(node.id).target = { ...t, page: id };
  }
  // Links resolve against the final tree, so a page may link one inserted later in the batch.
  const resolver = makeResolver(tree, files, ctx.baseUrl, { pages: pageRefs, files: fileRefs });
  for (const [id, { markdown, where }] of reusableBodies) {
    // One level: a block is included in pages, never in another block.
    if (findIncludes(parse, markdown).length) throw invalid(`${where}.document: a reusable content cannot include another reusable content`);
    const entry = reusable.find((b) => b.id === id);
    if (entry) entry.content = putMarkdown(tx, spaceId, canonicalLinks(parse, markdown, '', resolver));
  }
  const includeOf = (target: string) => resolveInclude(target, reusable, reusableRefs);
  for (const [id, raw] of bodies) {
    // A page removed since (with a page above it) has no body to store.
    if (tree.node(id)?.type !== 'document') continue;
    const node = tree.edit(id);
    const inc = canonicalIncludes(parse, raw, includeOf);
    if (inc.unresolved.length)
      throw invalid(`${whereOf.get(id) ?? 'changes'}.document: include "${inc.unresolved[0]}" names no reusable content of this change request`);
    const source = sources.get(id);
    const seen: { written: string; stored: string }[] = [];
    const stored = canonicalLinksIndexed(
      parse,
      inc.markdown,
      id,
      resolver,
      source === undefined ? undefined : (written, to) => seen.push({ written, stored: to }),
    );
    node.content = putMarkdown(tx, spaceId, stored.markdown, stored.spans);
    // A body set otherwise leaves an earlier source stale (body !== content): pull says so. With
    // it, what its links depend on (push-context.ts): the next push tells it unchanged by its hash.
    if (source !== undefined) {
      const links = recordSourceLinks(tree, files, id, seen);
      node.source = { text: putMarkdown(tx, spaceId, source), body: node.content, ...(links ? { links } : {}) };
    }
  }
  return { pages: tree.roots, files, reusable, outcomes: [...outcomes.values()], inserted };
}
