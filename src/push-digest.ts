import { readChangeRequest } from './change-requests/service.js';
import { linkIndexOf, rowSha, trustedSpans } from './content/link-index.js';
import { loadParser } from './content/link-refs.js';
import type { ContentRevision, PageContentRecord, PageNode, PushDigestPatchRecord, PushDigestRecord } from './content/model.js';
import { contentRowId, treeKeyOf } from './content/model.js';
import { wellFormedLinks, type SourceLinks } from './content/push-context.js';
import { currentRevision, materializedTree, readRevision, treeOf } from './content/revisions.js';
import { PageContents, PushDigestPatches, PushDigests } from './content/tables.js';
import type { Caller, Context } from './kernel/context.js';
import { DocsError, invalid } from './kernel/errors.js';
import { visibleSpace } from './spaces/service.js';
import { Spaces } from './spaces/tables.js';
import type { ReadTx } from './store/port.js';
import { purgeIfExpired } from './space-expiry.js';

// GET /_docs/push-digest?space=S[&changeRequest=C][&bodies=all|ID,ID...]: what `docs content push`
// compares a folder with, without any page's markdown: the page tree (ids, paths, titles, fields,
// link targets, as listPages gives them), each file's name, size and SHA-256, and for each page
// pushed from a file whose body is still the one made from it, the SHA-256 of that file and what
// its links depended on (src/content/push-context.ts). A folder's file with that hash, under the
// same conditions, is the page unchanged: the push reads no markdown and parses nothing for it.
// `bodies`: the markdown, link offsets and kept file of the pages the push must compare in full
// (`all`, or up to 200 ids), asked in a second call for those only; with `tree=false` that call
// answers no page tree (`pages` is left out: the push has it from the first call, and presenting
// 2,000 pages again was ~50 ms of a one-line push's server side).
// POST /_docs/push-digest?space=S keeps the space's digest for its current tree (one row per space,
// `space/<id>/digest`): the next GET answers from that row while the tree is the same, reading no
// page node (a no-op push of 1,000 pages read 1.2 MB of nodes for it). A push asks it when it
// found nothing to send (`kept` says whether it is kept already) and when it merged: the next push
// of the folder, a CI job's first after the merge included, reads that row (no-op push of 1,000
// pages right after a merge / node -e 0: 3.66 -> 2.91; the merging push of 2,000 pages +3.5%).

export interface DigestPage {
  id: string;
  type: PageNode['type'];
  title: string;
  path: string;
  description?: string;
  emoji?: string;
  icon?: string;
  hidden?: true;
  target?: PageNode['target'];
  pages: DigestPage[];
  /** The file the page was pushed from: its SHA-256, and what its links depended on. */
  source?: { sha: string; links: SourceLinks };
}

export interface PushDigest {
  revision: string;
  /** Left out when asked with `tree=false` (bodies only). */
  pages?: DigestPage[];
  files: { id: string; name: string; size: number; sha: string }[];
  /**
   * The space's digest (no change request, no bodies) came from the one kept for its tree. False:
   * it was made from the nodes, and a push that finds nothing to send asks the server to keep it
   * (POST), so that the next push of the folder reads one row instead of the page tree.
   */
  kept?: boolean;
  /** By page id (asked with `bodies`): its markdown as listPages gives it, its link offsets, its kept file. */
  bodies?: Record<string, { markdown: string; links: number[]; source?: string }>;
}

const MAX_IDS = 200;

const id = (v: unknown, name: string) => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !v || v.length > 200) throw invalid(`${name}: must be an id`);
  return v;
};

export async function pushDigestRoute(
  ctx: Context,
  caller: Caller,
  method: string,
  query: Record<string, unknown>,
): Promise<{ status: number; body: PushDigest | { revision: string; kept: true } }> {
  if (method !== 'GET' && method !== 'POST')
    throw Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on /_docs/push-digest (allowed: GET, POST)`), {
      allow: ['GET', 'POST'],
    });
  const space = id(query.space, 'space');
  const cr = id(query.changeRequest, 'changeRequest');
  if (!space) throw invalid('space: required, the space id (?space=ID)');
  if (method === 'POST') {
    if (cr !== undefined || query.bodies !== undefined) throw invalid('POST keeps the digest of the space itself: no changeRequest, no bodies');
    return keepDigest(ctx, caller, space);
  }
  let wanted: 'all' | Set<string> | undefined;
  if (query.bodies !== undefined) {
    if (typeof query.bodies !== 'string' || !query.bodies) throw invalid('bodies: `all` or page ids separated by commas');
    if (query.bodies === 'all') wanted = 'all';
    else {
      const ids = query.bodies.split(',');
      if (ids.length > MAX_IDS) throw invalid(`bodies: at most ${MAX_IDS} page ids (or \`all\`); ${ids.length} given`);
      if (ids.some((x) => !x || x.length > 200)) throw invalid('bodies: page ids separated by commas, none empty');
      wanted = new Set(ids);
    }
  }
  if (query.tree !== undefined && query.tree !== 'false') throw invalid('tree: `false` (the bodies asked, without the page tree) or left out');
  const withTree = query.tree === undefined;
  if (!withTree && !wanted) throw invalid('tree=false: only with bodies (the page tree is what the call answers otherwise)');
  await purgeIfExpired(ctx, space);
  const read = await ctx.store.read((tx) => {
    const rev: ContentRevision = cr
      ? readRevision(tx, space, readChangeRequest(tx, caller, space, cr).cr.revision)
      : currentRevision(tx, visibleSpace(tx, caller, space).row);
    const files = (rev.files ?? []).map((f) => ({ id: f.id, name: f.name, size: f.size, sha: f.sha }));
    // The space's tree without bodies: from the digest kept for it, when it is this tree's (its
    // text, parsed once the read is done: a read runs again after each round of loads).
    const kept = !cr && !wanted ? keptDigest(tx, space, rev) : undefined;
    if (kept !== undefined) return { rev, kept, files, bodies: [] };
    // The kept rows not loaded yet: this run ends here, and the next decides (a run that reached
    // the tree would load the whole node group, though the kept digest and its patch may do).
    if (!cr && !wanted && tx.settled?.() === false) return { rev, files, bodies: [] };
    // Without bodies, only the tree is read here and its pages made once the read is done.
    // With bodies, only they are read here (a walk that presents nothing); the pages, when asked,
    // are made once the read is done, as without bodies.
    const tree = treeOf(tx, rev);
    return { rev, tree, files, bodies: wanted ? wantedBodies(tree, wanted, rowIn(tx, space)) : [] };
  });
  const body: PushDigest = { revision: read.rev.id, files: read.files };
  // The kept text is JSON.stringify's, behind the store's checksum of its shard.
  if (withTree) body.pages = read.kept !== undefined ? patched(JSON.parse(read.kept.text), read.kept.patch) : digestPages(read.tree!);
  if (!cr && !wanted) body.kept = read.kept !== undefined;
  if (wanted) {
    // Link offsets as content-index gives them: the stored index when it checks out, else from a parse.
    const out: NonNullable<PushDigest['bodies']> = {};
    let parse: Awaited<ReturnType<typeof loadParser>> | undefined;
    for (const b of read.bodies) {
      let links = trustedSpans(b.markdown, b.stored);
      if (!links) {
        parse ??= await loadParser();
        links = linkIndexOf(parse, b.markdown, b.stored).spans;
      }
      out[b.id] = { markdown: b.markdown, links, ...(b.source !== undefined ? { source: b.source } : {}) };
    }
    body.bodies = out;
  }
  return { status: 200, body };
}

type Body = { id: string; markdown: string; stored: unknown; source?: string };

/** Digests made from a tree (tests count them: one per request, whatever the read's runs). */
export const digestWork = { made: 0 };

type RowOf = (sha: string) => PageContentRecord | undefined;
const rowIn =
  (tx: ReadTx, space: string): RowOf =>
  (sha) =>
    tx.get(PageContents, contentRowId(space, sha));

/** The record of the file a page was pushed from, when its body is still the one made from it. */
const keptSource = (node: PageNode) => (node.source && node.source.body === node.content ? node.source : undefined);

/**
 * The digest's pages of a tree. It reads nothing, and is made after the read that gave the tree:
 * a read runs again after each round of loads (a merge's new tree: up to six runs), and making
 * 2,000 pages' digest in each cost ~15 ms.
 */
function digestPages(tree: readonly PageNode[]): DigestPage[] {
  digestWork.made++;
  const present = (node: PageNode, path: string): DigestPage => {
    const out = entryOf(node, path);
    // A group below the top level (a store written before groups were kept there) is its pages, as listPages gives them.
    if (node.type !== 'link') out.pages = children(node.pages, path);
    return out;
  };
  const children = (list: readonly PageNode[], parent: string): DigestPage[] =>
    list.flatMap((c) => (c.type === 'group' ? children(c.pages, `${parent}/${c.slug}`) : [present(c, `${parent}/${c.slug}`)]));
  return tree.map((p) => present(p, p.slug));
}

/** A page's entry in the digest, its subpages left empty: what its node and path give. */
function entryOf(node: PageNode, path: string): DigestPage {
  const out: DigestPage = { id: node.id, type: node.type, title: node.title, path, pages: [] };
  if (node.description) out.description = node.description;
  if (node.emoji) out.emoji = node.emoji;
  if (node.icon) out.icon = node.icon;
  if (node.hidden) out.hidden = true;
  if (node.type === 'link') out.target = node.target ?? { kind: 'url', url: node.href ?? '' };
  if (node.type !== 'document') return out;
  const kept = keptSource(node);
  // The node's record of its file, as written: the node is immutable and addressed by a hash
  // that covers the record, and the file's row was written in the same commit (rows go only
  // with their space), so no body is read for it: the tree of a 1,000-page space is 1.2 MB of
  // nodes, its bodies 3.8 MB more (a no-op push). A malformed record is never given.
  if (kept && typeof kept.text === 'string' && kept.text.length === 64 && wellFormedLinks(kept.links)) out.source = { sha: kept.text, links: kept.links };
  return out;
}

/**
 * The entries of `after` that differ from `before`'s, when the two trees have the same pages at
 * the same paths in the same order (only pages' own fields changed: a one-line change and its
 * ancestors' nodes); undefined otherwise. A node of both trees (materialized once: revisions
 * share the subtrees they did not change) is the same subtree at the same path, so the same
 * entries: only the nodes on the way to a change are visited (a one-line change of a 2,000-page
 * space: its section's pages and the top level), as digestPages lays them out.
 */
function changedEntries(before: readonly PageNode[], after: readonly PageNode[]): Map<string, Omit<DigestPage, 'pages'>> | undefined {
  const out = new Map<string, Omit<DigestPage, 'pages'>>();
  const same = (was: readonly PageNode[], now: readonly PageNode[], parent: string | undefined): boolean => {
    if (was.length !== now.length) return false;
    for (let i = 0; i < now.length; i++) {
      const a = was[i]!;
      const b = now[i]!;
      if (a === b) continue;
      if (a.id !== b.id || a.slug !== b.slug || a.type !== b.type) return false;
      const path = parent === undefined ? b.slug : `${parent}/${b.slug}`;
      // A group below the top level is not a page of the digest: its pages are its parent's.
      if (parent === undefined || b.type !== 'group') {
        const { pages: _, ...entry } = entryOf(b, path);
        out.set(b.id, entry);
      }
      if (b.type !== 'link' && !same(a.pages, b.pages, path)) return false;
    }
    return true;
  };
  return same(before, after, undefined) ? out : undefined;
}

/** The kept digest's pages with the entries of its patch in place (their subpages kept). */
function patched(pages: DigestPage[], patch: string | undefined): DigestPage[] {
  if (patch === undefined) return pages;
  const entries = JSON.parse(patch) as Record<string, Omit<DigestPage, 'pages'>>;
  const walk = (list: DigestPage[]) => {
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (Object.hasOwn(entries, p.id)) list[i] = { ...entries[p.id]!, pages: p.pages };
      walk(p.pages);
    }
  };
  walk(pages);
  return pages;
}

/** The bodies of the pages `wanted` in a tree, read through `row`, in tree order; nothing presented. */
function wantedBodies(tree: readonly PageNode[], wanted: 'all' | Set<string>, row: RowOf): Body[] {
  const bodies: Body[] = [];
  const walk = (list: readonly PageNode[]) => {
    for (const node of list) {
      if (node.type === 'document' && (wanted === 'all' || wanted.has(node.id))) {
        // The kept file given only when its row is there and hashes to its address.
        const kept = keptSource(node);
        const keptRow = kept ? row(kept.text) : undefined;
        const text = keptRow && rowSha(keptRow) === kept!.text ? keptRow.markdown : undefined;
        const body = node.content ? row(node.content) : undefined;
        bodies.push({ id: node.id, markdown: body?.markdown ?? '', stored: body?.links, ...(text !== undefined ? { source: text } : {}) });
      }
      if (node.type !== 'link') walk(node.pages);
    }
  };
  walk(tree);
  return bodies;
}

/**
 * The digest kept for the space when it stands for `rev`'s tree: its text, made from that tree,
 * or made from an earlier one with a patch of the pages changed since (keepDigest).
 */
function keptDigest(tx: ReadTx, space: string, rev: ContentRevision): { text: string; patch?: string } | undefined {
  const kept = tx.get(PushDigests, space);
  if (!kept || typeof kept.pages !== 'string') return undefined;
  const tree = treeKeyOf(rev);
  if (kept.tree === tree) return { text: kept.pages };
  const patch = patchOf(tx, space, kept);
  return patch?.tree === tree ? { text: kept.pages, patch: patch.entries } : undefined;
}

/** The patch kept for the space, when it is of the kept digest `kept` (its base). */
function patchOf(tx: ReadTx, space: string, kept: PushDigestRecord): PushDigestPatchRecord | undefined {
  const patch = tx.get(PushDigestPatches, space);
  return patch && patch.base === kept.tree && typeof patch.entries === 'string' ? patch : undefined;
}

// A patch is kept while it is small beside the digest it patches; past that the digest is made again.
const PATCH_SHARE = 1 / 8;

/**
 * POST: keeps the digest of the space's current tree (derived from its nodes: whoever sees the
 * space may ask, and it replaces the one kept for an older tree); answers the revision it is of.
 * Asked by a push that found nothing to send or that merged: pushing that folder again (a CI job
 * on every merge) reads this one row, not the page tree of every page. Nothing is written when it is kept
 * already, or when the space moved on (or went) between the read and the write.
 *
 * When the tree the kept digest stands for is materialized in this process (the merging push
 * read it for its bodies) and the new tree has the same pages at the same paths, only the
 * entries of the pages whose nodes changed are kept, as a patch of the kept digest (its own
 * shard): a one-line change merged in a 2,000-page space wrote the whole digest again (0.8 MB
 * into the journal, then its file at the checkpoint) and made it from 2,000 nodes.
 */
async function keepDigest(ctx: Context, caller: Caller, space: string): Promise<{ status: number; body: { revision: string; kept: true } }> {
  await purgeIfExpired(ctx, space);
  const read = await ctx.store.read((tx) => {
    const rev = currentRevision(tx, visibleSpace(tx, caller, space).row);
    if (keptDigest(tx, space, rev)) return { rev };
    const kept = tx.get(PushDigests, space);
    const patch = kept && typeof kept.pages === 'string' ? patchOf(tx, space, kept) : undefined;
    if (tx.settled?.() === false) return { rev }; // run again once the kept rows are loaded (see the GET)
    const base =
      kept && typeof kept.pages === 'string'
        ? {
            tree: kept.tree,
            chars: kept.pages.length,
            patch: patch && { tree: patch.tree, entries: patch.entries },
          }
        : undefined;
    return { rev, tree: treeOf(tx, rev), base };
  });
  const { rev, tree, base } = read;
  if (tree) {
    let patch: string | undefined;
    const before = base && materializedTree(base.patch?.tree ?? base.tree);
    const changed = before && changedEntries(before, tree);
    if (changed) {
      const entries = new Map<string, unknown>(base!.patch ? Object.entries(JSON.parse(base!.patch.entries)) : []);
      for (const [id, e] of changed) entries.set(id, e);
      const text = JSON.stringify(Object.fromEntries(entries));
      if (text.length <= base!.chars * PATCH_SHARE) patch = text;
    }
    const pages = patch === undefined ? JSON.stringify(digestPages(tree)) : undefined;
    await ctx.store.write((tx) => {
      const row = tx.get(Spaces, space);
      if (!row || row.deletedAt !== undefined || row.revision !== rev.id) return;
      const tree = treeKeyOf(rev);
      if (patch !== undefined) {
        // Of the digest read above: one kept since for another tree would not be the patch's base.
        if (tx.get(PushDigests, space)?.tree !== base!.tree) return;
        tx.put(PushDigestPatches, { id: space, space, base: base!.tree, tree, entries: patch });
        return;
      }
      tx.put(PushDigests, { id: space, space, tree, pages: pages! });
      if (tx.get(PushDigestPatches, space)) tx.delete(PushDigestPatches, space);
    });
  }
  return { status: 200, body: { revision: rev.id, kept: true } };
}
