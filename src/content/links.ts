import type { Caller, Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { presentOrganization } from '../organizations/present.js';
import { spaceCounts } from '../spaces/counts.js';
import { presentSpace } from '../spaces/present.js';
import { visibleSpace } from '../spaces/service.js';
import type { ReadTx } from '../store/port.js';
import { extractLinks, makeResolver, type Parse, type Target } from './link-refs.js';
import type { ContentRevision, FileEntry } from './model.js';
import { markdownBody, presentFile, presentPage } from './present.js';
import { currentRevision, markdownOf, treeOf } from './revisions.js';
import { flatten, type Located } from './tree.js';
import { Organizations } from '../organizations/tables.js';

// The links of a space's current revision, found by parsing every document page's markdown.
// One item per distinct target: `ok` (a page or file of the revision, or an external URL),
// `broken` (a page or file link that resolves to nothing), `in-app` (a URL into this server's
// app). Backlinks are the pages whose links resolve to a given page or file.

export type LinkStatus = 'ok' | 'broken' | 'in-app';

interface Found {
  key: string;
  target: Target;
  status: LinkStatus;
  from: Located[];
}

const statusOf = (t: Target): LinkStatus => (t.kind === 'missing-page' || t.kind === 'missing-file' ? 'broken' : t.kind === 'url' && t.inApp ? 'in-app' : 'ok');
const keyOf = (t: Target) =>
  t.kind === 'page'
    ? `page:${t.page}`
    : t.kind === 'file'
      ? `file:${t.file}`
      : t.kind === 'url'
        ? `url:${t.url}`
        : t.kind === 'anchor'
          ? ''
          : `${t.kind}:${t.ref}`;

/** Every link of the revision's pages (only those of `onlyPage` when given), grouped by target. */
export function collectLinks(tx: ReadTx, ctx: Context, parse: Parse, spaceId: string, rev: ReturnType<typeof currentRevision>, onlyPage?: string): Found[] {
  const pages = treeOf(tx, rev);
  const resolver = makeResolver(pages, rev.files ?? [], ctx.baseUrl);
  const out = new Map<string, Found>();
  for (const l of flatten(pages)) {
    if (l.node.type !== 'document' || (onlyPage && l.node.id !== onlyPage)) continue;
    for (const link of extractLinks(parse, markdownOf(tx, spaceId, l.node))) {
      const target = resolver.resolve(link.url, l.node.id);
      const key = keyOf(target);
      if (!key) continue;
      let f = out.get(key);
      if (!f) out.set(key, (f = { key, target, status: statusOf(target), from: [] }));
      if (!f.from.includes(l)) f.from.push(l);
    }
  }
  return [...out.values()];
}

/**
 * Which content links are read from: a revision other than the space's current one (a change
 * request's), and the `versionContext` its ContentLocations carry.
 */
export interface ContentVersion {
  rev: ContentRevision;
  versionContext?: { type: 'changeRequest'; changeRequest: unknown };
}

/** Presents ContentLocation objects: the space and organization as the caller sees them. */
export function locations(ctx: Context, tx: ReadTx, caller: Caller, spaceId: string, version?: ContentVersion) {
  const seen = visibleSpace(tx, caller, spaceId);
  const space = seen.row;
  const org = tx.get(Organizations, space.organization)!;
  const orgObj = presentOrganization(ctx, org, seen.access.member.role);
  const spaceObj = presentSpace(ctx, space, seen.level, spaceCounts(tx, space.id));
  const rev = version?.rev ?? currentRevision(tx, space);
  const body = markdownBody(tx, spaceId);
  const vc = version?.versionContext ? { versionContext: version.versionContext } : {};
  return {
    space,
    rev,
    page: (l: Located) => ({ kind: 'page' as const, organization: orgObj, space: spaceObj, ...vc, page: presentPage(ctx, space, l.node, l.path, body, false) }),
    file: (f: FileEntry) => ({ kind: 'file' as const, organization: orgObj, space: spaceObj, ...vc, file: presentFile(ctx, space, f) }),
  };
}

export function linkItems(ctx: Context, tx: ReadTx, caller: Caller, parse: Parse, spaceId: string, onlyPage?: string, version?: ContentVersion) {
  const loc = locations(ctx, tx, caller, spaceId, version);
  const pages = flatten(treeOf(tx, loc.rev));
  if (onlyPage && !pages.some((l) => l.node.id === onlyPage)) throw notFound(`page ${onlyPage} not found in space ${spaceId}`);
  const byId = new Map(pages.map((l) => [l.node.id, l]));
  const files = new Map((loc.rev.files ?? []).map((f) => [f.id, f]));
  const found = collectLinks(tx, ctx, parse, spaceId, loc.rev, onlyPage);
  const items = found.map((f) => {
    const t = f.target;
    const targetReference =
      t.kind === 'page'
        ? loc.page(byId.get(t.page)!)
        : t.kind === 'file'
          ? loc.file(files.get(t.file)!)
          : t.kind === 'url'
            ? { kind: 'url' as const, url: t.url }
            : { kind: 'url' as const, url: (t as { ref: string }).ref };
    return { status: f.status, relation: 'reference' as const, targetReference, locationReferences: f.from.map(loc.page) };
  });
  return { items, keys: found.map((f) => f.key), stats: { total: items.length, broken: { total: items.filter((i) => i.status === 'broken').length } } };
}

/** Keys (as collectLinks makes them) of the broken links of a revision: what a change request's base already had broken. */
export function brokenKeys(tx: ReadTx, ctx: Context, parse: Parse, spaceId: string, rev: ContentRevision): Set<string> {
  return new Set(
    collectLinks(tx, ctx, parse, spaceId, rev)
      .filter((f) => f.status === 'broken')
      .map((f) => f.key),
  );
}

/** Pages of the current revision (or of `version`) that link to a page or a file. */
export function backlinks(
  ctx: Context,
  tx: ReadTx,
  caller: Caller,
  parse: Parse,
  spaceId: string,
  target: { page: string } | { file: string },
  version?: ContentVersion,
) {
  const loc = locations(ctx, tx, caller, spaceId, version);
  const exists =
    'page' in target ? flatten(treeOf(tx, loc.rev)).some((l) => l.node.id === target.page) : (loc.rev.files ?? []).some((f) => f.id === target.file);
  if (!exists) throw notFound(`${'page' in target ? `page ${target.page}` : `file ${target.file}`} not found in space ${spaceId}`);
  const key = 'page' in target ? `page:${target.page}` : `file:${target.file}`;
  const hit = collectLinks(tx, ctx, parse, spaceId, loc.rev).find((f) => f.key === key);
  return (hit?.from ?? []).map(loc.page);
}
