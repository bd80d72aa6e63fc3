import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import type { Parse } from '../../src/content/link-refs.js';
import { writePageSource } from '../../src/documents/page-source.js';
import { DocsError } from '../../src/kernel/errors.js';
import { canonicalBody, contentTypeOf, flattenLocal, type LocalFile, type LocalPage } from './content-folder.js';
import { flattenRemote, pageFields, type RemoteFile, type RemotePage } from './content-remote.js';
import type { LinkCache } from './link-cache.js';
import { sha256hex } from '../../src/content/link-index.js';
import { sourceLinksHold, type PathState } from '../../src/content/push-context.js';
import { yielder } from './yield.js';

// What `docs content push` must change so the space matches the folder, as content changes of
// updateChangeRequestContent. Phase 1: files, deletions, new pages (empty) and moves, in tree
// order, so parents exist before their children. Phase 2: titles, fields and bodies of the
// pages that differ, once every page and file exists, so every link resolves.
// A change's `into` may hold `{path}` of a page inserted by an earlier change (see push).

export interface PlannedChange {
  change: any;
  /** For insert_page: the local path (its ref); for into: a path to resolve to an id. */
  path?: string;
  intoPath?: string | null;
  pagePath?: string;
  /** For a link page to a page: that page's path, to resolve to its id (or its ref) as `target.page`. */
  targetPath?: string;
  /** For a new page's body: the paths of the folder's pages its links lead to (pushBatches). */
  linksTo?: string[];
}

/** Changes per updateChangeRequestContent call: each call is a revision of the change request. */
export const BATCH = 50;

/**
 * The plan's changes as sent, in batches of up to `size` (phase 1's, then phase 2's). A new
 * page's body goes with its insert when, by the end of that batch, the page and every page its
 * links lead to are where the whole push puts them: inserted, and with subpages if they will have
 * some (links resolve against a batch's final tree, relative to the page's folder: a page with
 * subpages is `path/README.md`). The page is then written once, with its body, rather than empty
 * and again in phase 2: a push of 2,000 new pages wrote each page's node twice (40 revisions
 * more), and every later read of the space's tree read both. Not when the plan deletes pages: a
 * new page may take a deleted one's path, and a link would resolve to the old one.
 */
export function pushBatches(plan: { phase1: PlannedChange[]; phase2: PlannedChange[] }, size = BATCH): PlannedChange[][] {
  const phase1 = [...plan.phase1];
  let phase2 = plan.phase2;
  if (!phase1.some((c) => c.change.operation === 'delete_page')) {
    // By path: the index of its insert, and the batch of its first inserted subpage.
    const inserted = new Map<string, number>();
    const firstChild = new Map<string, number>();
    phase1.forEach((c, i) => {
      if (c.change.operation !== 'insert_page' || c.path === undefined) return;
      inserted.set(c.path, i);
      if (typeof c.intoPath === 'string' && !firstChild.has(c.intoPath)) firstChild.set(c.intoPath, Math.floor(i / size));
    });
    // The batch after which `path` is as the push leaves it (-1: it is already).
    const settled = (path: string) => {
      const i = inserted.get(path);
      return Math.max(i === undefined ? -1 : Math.floor(i / size), firstChild.get(path) ?? -1);
    };
    phase2 = plan.phase2.filter((c) => {
      const i = c.pagePath === undefined ? undefined : inserted.get(c.pagePath);
      if (i === undefined || c.linksTo === undefined || c.change.operation !== 'update_page' || c.change.document === undefined) return true;
      const batch = Math.floor(i / size);
      if (settled(c.pagePath!) > batch || !c.linksTo.every((path) => settled(path) <= batch)) return true;
      const { operation: _update, ...fields } = c.change;
      phase1[i] = { ...phase1[i]!, change: { ...phase1[i]!.change, ...fields } };
      return false;
    });
  }
  const batches: PlannedChange[][] = [];
  for (const phase of [phase1, phase2]) for (let i = 0; i < phase.length; i += size) batches.push(phase.slice(i, i + size));
  return batches;
}

const MAX_FILE = 1024 * 1024;

/** SHA-256 (hex) of a file's bytes, read as a stream (never the whole file in memory at once). */
export function hashFile(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path)
      .on('data', (d) => h.update(d))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}
/** How many pages the plans of this process compared by their file's hash alone, and in full (for tests and figures). */
export const compared = { byHash: 0, full: 0 };

const sameFields = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/** Fields the page has in the space but not in the folder: sent empty to remove them. */
function cleared(had: Record<string, unknown>, wanted: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(had)) if (wanted[k] === undefined) out[k] = k === 'hidden' ? false : '';
  return out;
}

export async function planPush(
  parse: Parse,
  local: { pages: LocalPage[]; files: LocalFile[] },
  remote: { pages: RemotePage[]; files: RemoteFile[]; keepsSources?: boolean; complete?: (pages: RemotePage[]) => Promise<void> },
  download: (url: string) => Promise<Buffer>,
  /** The folder's link offsets by body hash (kept between runs): a body is parsed once. */
  cache?: LinkCache,
): Promise<{ phase1: PlannedChange[]; phase2: PlannedChange[]; stats: { added: number; updated: number; deleted: number; files: number } }> {
  const phase1: PlannedChange[] = [];
  const phase2: PlannedChange[] = [];
  const stats = { added: 0, updated: 0, deleted: 0, files: 0 };

  // Files: new names, or the same name with other bytes.
  const remoteFiles = new Map(remote.files.map((f) => [f.name, f]));
  const uploads: any[] = [];
  const tick = yielder();
  for (const f of local.files) {
    await tick();
    if (f.size > MAX_FILE) throw new DocsError('invalid', `${f.name}: files are at most 1 MB (this one is ${f.size} bytes)`);
    const r = remoteFiles.get(f.name);
    // The same size and the same SHA-256 (streamed from the disk; the server's is stored with
    // the file): unchanged, nothing downloaded. A server that does not say: its bytes compared.
    if (r && r.size === f.size) {
      if (r.sha !== undefined ? r.sha === (await hashFile(f.abs)) : (await download(r.downloadURL)).equals(readFileSync(f.abs))) continue;
    }
    uploads.push({ name: f.name, contentType: contentTypeOf(f.name), base64: readFileSync(f.abs).toString('base64') });
  }
  for (let i = 0; i < uploads.length; i += 20) phase1.push({ change: { operation: 'insert_files', files: uploads.slice(i, i + 20) } });
  stats.files = uploads.length;

  const rflat = flattenRemote(remote.pages);
  const lflat = flattenLocal(local.pages);
  const lByPath = new Map(lflat.map((x) => [x.page.path, x]));
  // A page that became a group (or a group that became a page) is replaced, with its subpages:
  // a group has no document, and a page's type does not change.
  const replaced = new Set<string>();
  for (const { page, parent } of rflat) {
    const l = lByPath.get(page.path);
    if ((l && !!l.page.group !== !!page.group) || (parent && replaced.has(parent))) replaced.add(page.id);
  }
  const rByPath = new Map(rflat.filter((x) => !replaced.has(x.page.id)).map((x) => [x.page.path, x]));

  // Deletions: remote pages no longer in the folder (the topmost: subpages go with them).
  const deleted = new Set<string>();
  for (const { page, parent } of rflat) {
    if (lByPath.has(page.path) && !replaced.has(page.id)) continue;
    deleted.add(page.id);
    if (parent && deleted.has(parent)) continue;
    phase1.push({ change: { operation: 'delete_page', page: page.id } });
  }
  stats.deleted = deleted.size;

  // Structure: a list of siblings that differs is laid out again, page by page, in order.
  const remoteChildren = (parentPath: string | null): string[] => {
    const list = parentPath === null ? remote.pages : (rByPath.get(parentPath)?.page.children ?? []);
    return list.filter((p) => !deleted.has(p.id)).map((p) => p.path);
  };
  // New link pages to a page go in last (`deferred`), once every page they may lead to is in:
  // the other pages are placed among themselves, then each of these at its own place, in order.
  const deferred: PlannedChange[] = [];
  const targetOf = (l: NonNullable<LocalPage['linkTo']>) => (l.anchor ? { kind: 'anchor', page: l.path, anchor: l.anchor } : { kind: 'page', page: l.path });
  const layout = (pages: LocalPage[], parentPath: string | null) => {
    const want = pages.map((p) => p.path);
    const parentIsNew = parentPath !== null && !rByPath.has(parentPath);
    const same = !parentIsNew && JSON.stringify(want) === JSON.stringify(remoteChildren(parentPath));
    let placed = 0;
    pages.forEach((p, final) => {
      const r = rByPath.get(p.path);
      if (!r && p.linkTo) {
        stats.added++;
        deferred.push({
          change: { operation: 'insert_page', ref: p.path, type: 'link', title: p.title, target: targetOf(p.linkTo), document: {}, at: final },
          path: p.path,
          intoPath: parentPath,
          targetPath: p.linkTo.path,
        });
        return;
      }
      const at = placed++;
      if (!r) {
        stats.added++;
        phase1.push({
          change:
            p.link !== undefined
              ? // A link page: its title and URL, complete at once (docs/manual/docs-as-code.md#link-pages).
                { operation: 'insert_page', ref: p.path, type: 'link', title: p.title, target: { kind: 'url', url: p.link }, document: {}, at }
              : {
                  operation: 'insert_page',
                  ref: p.path,
                  ...(p.group ? { type: 'group' } : {}),
                  title: p.title,
                  slug: p.path.slice(p.path.lastIndexOf('/') + 1),
                  document: p.group ? {} : { markdown: '' },
                  at,
                },
          path: p.path,
          intoPath: parentPath,
        });
      } else if (!same) {
        phase1.push({ change: { operation: 'update_page', page: r.page.id, at }, intoPath: parentPath });
      }
      layout(p.children, p.path);
    });
  };
  layout(local.pages, null);
  phase1.push(...deferred);

  // Content: compared in the canonical relative link form, against the folder's tree.
  const pageOf = (path: string) => {
    const l = lByPath.get(path);
    return l ? { hasChildren: l.page.children.length > 0 } : undefined;
  };
  const names = new Set(local.files.map((f) => f.name));
  const ids = { pages: new Map(rflat.map((x) => [x.page.id, x.page.path])), files: new Map(remote.files.map((f) => [f.id, f.name])) };
  // A page pushed from a file with these bytes (the push digest's hash), under the same title
  // and fields, whose links depend on nothing that moved since (push-context.ts), is unchanged:
  // nothing of it is read from the space, nor parsed. The others are compared in full, their
  // bodies asked for now (complete), as below.
  const stateOf = (path: string): PathState => {
    const l = lByPath.get(path);
    return !l ? 0 : l.page.children.length ? 2 : 1;
  };
  const unchanged = new Set<LocalPage>();
  const compare: RemotePage[] = [];
  for (const { page } of lflat) {
    await tick();
    const r = rByPath.get(page.path);
    if (!r || page.link !== undefined || page.group) continue;
    const d = r.page.digest;
    if (
      d &&
      remote.keepsSources &&
      page.source !== undefined &&
      r.page.title === page.title &&
      sameFields(r.page.fields, pageFields(page.fields)) &&
      (page.sourceSha ?? sha256hex(page.source)) === d.sha &&
      sourceLinksHold(d.links, {
        path: page.path,
        stateOf,
        hasFile: (n) => names.has(n),
        pagePath: (id) => ids.pages.get(id),
        fileName: (id) => ids.files.get(id),
      })
    )
      unchanged.add(page);
    else compare.push(r.page);
  }
  await remote.complete?.(compare);
  compared.full += compare.length;
  compared.byHash += unchanged.size;

  // Only the pages that differ are parsed: a page whose title and fields are the space's is
  // unchanged when its body is the space's markdown as it is, or as the folder writes it (its
  // links made relative at the offsets of the server's link index, without parsing it); only
  // then is the folder's body parsed, to put its links in the same form.
  for (const { page } of lflat) {
    if (unchanged.has(page)) continue;
    await tick();
    const r = rByPath.get(page.path);
    if (page.link !== undefined) {
      // A link page: its title and URL, or page and anchor (inserted with them).
      if (r && (r.page.title !== page.title || r.page.link !== page.link)) {
        stats.updated++;
        phase2.push({
          change: { operation: 'update_page', title: page.title, target: page.linkTo ? targetOf(page.linkTo) : { kind: 'url', url: page.link } },
          pagePath: page.path,
          ...(page.linkTo ? { targetPath: page.linkTo.path } : {}),
        });
      }
      continue;
    }
    if (page.group) {
      // A group page: its title only (inserted with it).
      if (r && r.page.title !== page.title) {
        stats.updated++;
        phase2.push({ change: { operation: 'update_page', title: page.title }, pagePath: page.path });
      }
      continue;
    }
    const at = { path: page.path, hasChildren: page.children.length > 0 };
    const fields = pageFields(page.fields);
    // The file is kept with the page (a server that keeps sources): a page whose file changed in
    // bytes only (trailing spaces in code, the final newline, how a link is written) is sent too,
    // so that pull gives the file back as it is; one without a kept source is the same when the
    // file is what pull writes from the body.
    const keptSame = !remote.keepsSources || page.source === undefined || (r?.page.source !== undefined && r.page.source === page.source);
    const composedOnly = remote.keepsSources && page.source !== undefined && r !== undefined && r.page.source === undefined;
    let body: string | undefined;
    if (r && (keptSame || composedOnly) && r.page.title === page.title && sameFields(r.page.fields, fields)) {
      let same = page.body === r.page.markdown;
      if (!same) {
        const remoteBody = canonicalBody(parse, r.page.markdown, at, pageOf, names, ids, r.page.links);
        same = page.body === remoteBody;
        if (!same) {
          body = canonicalBody(parse, page.body, at, pageOf, names, ids, cache?.spans(parse, page.body));
          same = body === remoteBody;
        }
      }
      if (same && keptSame) continue;
      if (same) {
        body ??= canonicalBody(parse, page.body, at, pageOf, names, ids, cache?.spans(parse, page.body));
        if (page.source === writePageSource({ title: page.title, fields, body })) continue;
      }
    }
    // A new page: the pages its links lead to are noted, so that its body may go with its insert.
    const linksTo = r ? undefined : new Set<string>();
    const noting = (path: string) => {
      const l = pageOf(path);
      if (l) linksTo?.add(path);
      return l;
    };
    body ??= canonicalBody(parse, page.body, at, noting, names, ids, cache?.spans(parse, page.body));
    const markdown = writePageSource({ title: page.title, fields, body });
    if (r) stats.updated++;
    phase2.push({
      change: {
        operation: 'update_page',
        title: page.title,
        ...cleared(r?.page.fields ?? {}, fields),
        document: { markdown },
        ...(remote.keepsSources && page.source !== undefined ? { source: page.source } : {}),
      },
      pagePath: page.path,
      ...(linksTo ? { linksTo: [...linksTo] } : {}),
    });
  }
  return { phase1, phase2, stats };
}
