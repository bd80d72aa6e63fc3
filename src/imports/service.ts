import { uploadedFile } from '../content/storage.js';
import { createHash } from 'node:crypto';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { loadIpaddr, refusedLiteral } from '../kernel/outbound-guard.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { membershipOf } from '../organizations/service.js';
import { requireContentEdit, visibleSpace } from '../spaces/service.js';
import { readBlob, writeBlob, imageDimensions } from '../content/blobs.js';
import { runBatch, type UploadedFile } from '../content/authoring.js';
import type { Parse } from '../content/link-refs.js';
import { commitRevision, currentRevision, filesOf, pageOf, readRevision } from '../content/revisions.js';
import { createChangeRequest } from '../change-requests/service.js';
import { findChangeRequest, requireWritable } from '../change-requests/lookup.js';
import { baseOf } from '../change-requests/model.js';
import { ChangeRequests } from '../change-requests/tables.js';
import { Spaces } from '../spaces/tables.js';
import { SiteSpaces } from '../sites/tables.js';
import { readArchive, type Files } from './archive.js';
import type { ImportedPage, Layout } from './layout.js';
import type { ImportRunRecord, ImportSource, ImportStatus } from './model.js';
import { ImportRuns } from './tables.js';

// The rules of import runs (docs/manual/imports-and-git.md#import-runs). Starting one needs `edit`
// on the target space (the content lands in a change request of it); reading one needs to see
// that space; cancelling needs `edit` too. Bad input is refused before any run is created: file
// keys that are not files of the target, an archive with an unsafe entry or past the bounds, a URL
// that is not http(s) or names an address the outbound guard refuses.

export const MAX_FILES = 50;

export interface StartInput {
  source: ImportSource;
  target: { space: string; changeRequest?: string; page?: string };
  site?: string;
}

/** The bytes of a file key: a file of the target (the change request's revision, or the space's). */
export function fileKeys(tx: ReadTx, target: StartInput['target'], keys: string[]): { key: string; name: string; sha: string }[] {
  const space = tx.get(Spaces, target.space)!;
  const rev = target.changeRequest ? readRevision(tx, space.id, findChangeRequest(tx, space.id, target.changeRequest).revision) : currentRevision(tx, space);
  const files = filesOf(rev);
  return keys.map((key, i) => {
    // A key of generateStorageUploadURL (kind import_file) of the space's organization (docs/manual/imports-and-git.md#upload-urls).
    const uploaded = uploadedFile(tx, space.organization, key, 'import_file', `source.files[${i}]`);
    if (uploaded) return { key, name: uploaded.name, sha: uploaded.sha! };
    const f = files.find((x) => x.id === key || x.name === key);
    if (!f)
      throw invalid(
        `source.files[${i}]: ${JSON.stringify(key)} is not a file of ${target.changeRequest ? `change request ${target.changeRequest}` : `space ${target.space}`} (upload the archive there first: docs imports start --archive)`,
      );
    return { key, name: f.name, sha: f.sha };
  });
}

/** Refuses a website URL the server may not fetch (scheme, credentials, a refused IP literal) before a run exists. */
export async function checkWebsiteUrl(url: string): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid(`source.url: ${url} is not a valid URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalid(`source.url: ${url}: only http and https URLs are fetched`);
  if (u.username || u.password) throw invalid(`source.url: ${u.origin}: URLs with credentials are not fetched`);
  if (process.env.DOCS_FETCH_ALLOW_PRIVATE === '1') return;
  const why = refusedLiteral(await loadIpaddr(), u);
  if (why) throw invalid(`source.url: ${url}: ${why}: refused (private and local addresses are not fetched; DOCS_FETCH_ALLOW_PRIVATE=1 allows them)`);
}

/** The files an import brings: archives opened (checked and bounded), markdown files as they are. */
export async function filesOfSources(items: { name: string; bytes: Buffer }[]): Promise<Files> {
  const out: Files = new Map();
  for (const { name, bytes } of items) {
    const short = name.slice(name.lastIndexOf('/') + 1) || 'index.md';
    if (/\.(md|mdx|markdown)$/i.test(short)) {
      out.set(short, bytes);
      continue;
    }
    for (const [n, b] of await readArchive(bytes, name)) out.set(n, b);
  }
  return out;
}

/** Validates the start (rights, target, source) in one read; returns the run's site. */
export function checkStart(tx: ReadTx, caller: Caller, organizationId: string, input: StartInput): { site?: string } {
  membershipOf(tx, organizationId, caller);
  const { row: space } = requireContentEdit(tx, caller, input.target.space);
  if (space.organization !== organizationId) throw notFound(`target.space: space ${input.target.space} not found`);
  let rev = currentRevision(tx, space);
  if (input.target.changeRequest) {
    const cr = findChangeRequest(tx, space.id, input.target.changeRequest);
    requireWritable(cr);
    rev = readRevision(tx, space.id, cr.revision);
  }
  if (input.target.page) {
    const p = pageOf(tx, rev, input.target.page);
    if (!p) throw invalid(`target.page: no page ${input.target.page} in ${input.target.changeRequest ? 'the change request' : `space ${space.id}`}`);
    if (p.node.type === 'link') throw invalid(`target.page: page ${input.target.page} is a link page and cannot hold pages`);
  }
  if (input.source.type === 'file') {
    if (!input.source.files.length) throw invalid('source.files: at least one file');
    if (input.source.files.length > MAX_FILES) throw invalid(`source.files: at most ${MAX_FILES} files`);
  }
  const sites = tx.find(SiteSpaces, 'space', space.id).map((s) => s.site);
  const site = input.site ?? (new Set(sites).size === 1 ? sites[0] : undefined);
  return site ? { site } : {};
}

export function createRun(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, input: StartInput): ImportRunRecord {
  const { site } = checkStart(tx, caller, organizationId, input);
  const now = ctx.clock.now().toISOString();
  const target = {
    space: input.target.space,
    ...(input.target.changeRequest ? { changeRequest: input.target.changeRequest } : {}),
    ...(input.target.page ? { page: input.target.page } : {}),
  };
  return tx.put(ImportRuns, {
    id: newId(),
    organization: organizationId,
    status: 'pending',
    queue: 'waiting',
    source: input.source,
    target,
    ...(site ? { site } : {}),
    createdBy: caller.userId,
    createdAt: now,
    updatedAt: now,
    pages: [],
  });
}

/** A run the caller may see (it sees the target space), or 404. */
export function visibleRun(tx: ReadTx, caller: Caller, organizationId: string, id: string): ImportRunRecord {
  membershipOf(tx, organizationId, caller);
  const r = tx.get(ImportRuns, id);
  if (!r || r.organization !== organizationId) throw notFound(`import run ${id} not found`);
  try {
    visibleSpace(tx, caller, r.target.space);
  } catch {
    throw notFound(`import run ${id} not found`);
  }
  return r;
}

export function listRuns(
  tx: ReadTx,
  caller: Caller,
  organizationId: string,
  q: { space?: string; changeRequest?: string; site?: string; status?: ImportStatus | 'active' },
): ImportRunRecord[] {
  membershipOf(tx, organizationId, caller);
  const seen = new Map<string, boolean>();
  const sees = (space: string) => {
    if (!seen.has(space))
      try {
        visibleSpace(tx, caller, space);
        seen.set(space, true);
      } catch {
        seen.set(space, false);
      }
    return seen.get(space)!;
  };
  return tx
    .find(ImportRuns, 'organization', organizationId)
    .filter(
      (r) =>
        (!q.space || r.target.space === q.space) &&
        (!q.changeRequest || r.target.changeRequest === q.changeRequest || r.changeRequest === q.changeRequest) &&
        (!q.site || r.site === q.site) &&
        (!q.status || r.status === q.status || (q.status === 'active' && (r.status === 'pending' || r.status === 'in-progress'))) &&
        sees(r.target.space),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

export function cancelRun(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, id: string): ImportRunRecord {
  const r = visibleRun(tx, caller, organizationId, id);
  requireContentEdit(tx, caller, r.target.space);
  if (r.status !== 'pending' && r.status !== 'in-progress')
    throw invalid(`import run ${id} is already ${r.status}: only a pending or in-progress run can be cancelled`);
  const now = ctx.clock.now().toISOString();
  return tx.put(ImportRuns, { ...r, status: 'cancelled', queue: 'idle', reason: `cancelled by ${caller.userId}`, completedAt: now, updatedAt: now });
}

/** Stores the assets' bytes as blobs (before the write that names them). */
export async function storeAssets(ctx: Context, assets: Map<string, Buffer>): Promise<UploadedFile[]> {
  const out: UploadedFile[] = [];
  for (const [name, bytes] of assets) {
    const sha = createHash('sha256').update(bytes).digest('hex');
    await writeBlob(ctx, sha, bytes);
    const dimensions = imageDimensions(bytes);
    out.push({ name: safeFileName(name), contentType: contentTypeOf(name), size: bytes.length, sha, ...(dimensions ? { dimensions } : {}) });
  }
  return out;
}

/** A file name the content batch keeps (safe segments joined by `/`). */
const safeFileName = (name: string) =>
  name
    .split('/')
    .map((s) => s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '') || 'file')
    .join('/');

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  pdf: 'application/pdf',
};
export const contentTypeOf = (name: string) => TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/** The content batch for a page tree: insert_page changes (refs for parents), then the files. */
export function changesOf(pages: ImportedPage[], into: string | null, uploads: UploadedFile[]): { changes: any[]; files: Map<string, string> } {
  const changes: any[] = [];
  const files = new Map<string, string>();
  const walk = (list: ImportedPage[], parent: string | null) => {
    for (const p of list) {
      const ref = `p${changes.length}`;
      if (p.file) files.set(ref, p.file);
      changes.push({
        operation: 'insert_page',
        ref,
        ...(parent !== null ? { into: parent } : {}),
        // A group only at the top level, as both specs have it (content/authoring.ts refuses one
        // lower): a nested category, nav section or tab becomes an empty page holding its pages.
        ...(p.group && parent === null ? { type: 'group' } : { document: { markdown: p.group ? '' : p.body } }),
        ...p.fields,
        title: p.title.slice(0, 256),
        slug: p.slug,
      });
      walk(p.children, ref);
    }
  };
  walk(pages, into);
  if (uploads.length) changes.push({ operation: 'insert_files', files: uploads });
  return { changes, files };
}

/**
 * Writes a page tree into a change request of the space: the given one, or a new one titled
 * `subject`. The same content batch as `docs content push` (content/authoring.ts runBatch); a
 * taken slug gets a number. Returns the change request and the created pages (ref -> id).
 */
export function writePages(
  tx: WriteTx,
  ctx: Context,
  caller: Caller,
  spaceId: string,
  crId: string | undefined,
  subject: string,
  layout: Pick<Layout, 'pages'>,
  into: string | null,
  uploads: UploadedFile[],
  parse: Parse,
  extraChanges: any[] = [],
) {
  const cr = crId ? findChangeRequest(tx, spaceId, crId) : createChangeRequest(tx, ctx, caller, spaceId, { subject }).cr;
  requireWritable(cr);
  const { changes, files } = changesOf(layout.pages, into, uploads);
  const uploadMap = new Map<number, UploadedFile[]>();
  const all = [...extraChanges, ...changes];
  const filesAt = all.findIndex((c) => c.operation === 'insert_files');
  if (filesAt >= 0) uploadMap.set(filesAt, uploads);
  const res = runBatch(tx, ctx, spaceId, cr.revision, baseOf(cr), all, uploadMap, parse, true);
  const rev = commitRevision(tx, ctx, spaceId, [cr.revision], { pages: res.pages, files: res.files, author: caller.userId, changeRequest: cr.id });
  const updated = tx.put(ChangeRequests, { ...cr, revision: rev.id, updatedAt: ctx.clock.now().toISOString() });
  const created = res.outcomes.flatMap((o) => (o.object === 'created_page' && o.ref ? [{ ref: o.ref, id: o.page }] : []));
  return { cr: updated, created, files };
}

export function requireRunnable(r: ImportRunRecord | undefined): r is ImportRunRecord {
  return !!r && (r.status === 'pending' || r.status === 'in-progress');
}

/** Reads file keys' bytes (the blobs). */
export async function readKeys(ctx: Context, keys: { name: string; sha: string }[]): Promise<{ name: string; bytes: Buffer }[]> {
  const out = [];
  for (const k of keys) {
    const bytes = await readBlob(ctx, k.sha);
    if (!bytes) throw conflict(`file ${k.name}: its bytes are missing from this server's files`);
    out.push({ name: k.name, bytes });
  }
  return out;
}
