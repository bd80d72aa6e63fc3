import { createHash } from 'node:crypto';
import type { Caller, Context } from '../kernel/context.js';
import { conflict, DocsError, forbidden, invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { Role } from '../kernel/roles.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { writeBlob } from './blobs.js';
import { fontFormat } from '../kernel/font-format.js';
import { CONTROL_CHARS, ensureDownloadSecret, SERVABLE_TYPE, sign, verifySignature } from './downloads.js';
import type { StorageKind, StorageUploadRecord } from './model.js';
import { StorageUploads } from './tables.js';

export type { StorageKind, StorageUploadRecord };

// Signed upload URLs (docs/manual/imports-and-git.md#upload-urls). generateStorageUploadURL
// records what will be uploaded (organization, kind, name, type, exact size) and answers a URL of
// this server, `PUT /storage/<id>?exp=&sig=`, with an HMAC-SHA256 signature over
// (id, organization, kind, size, type, expiry) by the data directory's signing secret (the one of
// download URLs, src/content/downloads.ts). The URL takes **one** upload of exactly that size
// before it expires (15 minutes); the bytes become a content-addressed blob (files/<sha>, so no
// name from the request ever reaches a path), and the row then names it. The answer's `key`,
// `storage/<organization>/<id>`, is what the organization's operations take for an uploaded file:
// `startImportRun`'s `source.files` (kind `import_file`), a font face's `storageKey`
// (`customization_font`): `uploadedFile` below.

export const UPLOAD_TTL_MS = 15 * 60 * 1000;
/** The largest file each kind takes (an import archive is read whole, src/imports/archive.ts). */
export const MAX_BYTES: Record<StorageKind, number> = {
  customization_font: 5 * 1024 * 1024,
  import_file: 64 * 1024 * 1024,
  organization_file: 64 * 1024 * 1024,
};
/** Who may ask for an upload URL of each kind: the role of what the file is for. */
const ROLE: Record<StorageKind, Role> = { customization_font: 'admin', import_file: 'create', organization_file: 'edit' };

const KEY = /^storage\/([A-Za-z0-9]+)\/([A-Za-z0-9]+)$/;
export const storageKey = (r: Pick<StorageUploadRecord, 'organization' | 'id'>) => `storage/${r.organization}/${r.id}`;
const signed = (r: StorageUploadRecord, exp: string) => ['storage-upload', r.id, r.organization, r.kind, String(r.size), r.type, exp];

export interface UploadRequest {
  file: { name: string; type: string; size: number };
  kind: StorageKind;
}

/** Checks the request and records the upload to come; the caller then signs its URL. */
export function createUpload(tx: WriteTx, ctx: Context, caller: Caller, organizationId: string, body: UploadRequest): StorageUploadRecord {
  const { member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, ROLE[body.kind], `uploading a file of kind ${body.kind}`);
  const { name, type, size } = body.file;
  if (!name.trim() || name.length > 255) throw invalid('file.name: must be 1 to 255 characters');
  if (CONTROL_CHARS.test(name)) throw invalid('file.name: control characters are not allowed');
  if (!type || !SERVABLE_TYPE.test(type) || type.length > 255) throw invalid('file.type: must be a MIME type in printable ASCII');
  if (!Number.isInteger(size) || size < 1) throw invalid('file.size: must be a whole number of bytes, at least 1');
  if (size > MAX_BYTES[body.kind]) throw invalid(`file.size: a file of kind ${body.kind} is at most ${MAX_BYTES[body.kind]} bytes`);
  const now = ctx.clock.now();
  // Expired upload records of the organization that never received a file go on the way.
  for (const old of tx.find(StorageUploads, 'organization', organizationId)) {
    if (!old.sha && Date.parse(old.expiresAt) <= now.getTime()) tx.delete(StorageUploads, old.id);
  }
  return tx.put(StorageUploads, {
    id: newId(24),
    organization: organizationId,
    kind: body.kind,
    name,
    type,
    size,
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
    createdAt: now.toISOString(),
    createdBy: caller.userId,
  });
}

export async function uploadUrl(ctx: Context, r: StorageUploadRecord): Promise<string> {
  await ensureDownloadSecret(ctx);
  const exp = String(Date.parse(r.expiresAt));
  return `${ctx.baseUrl}/storage/${r.id}?${new URLSearchParams({ exp, sig: sign(ctx, signed(r, exp)) })}`;
}

/**
 * What `PUT /storage/<id>?exp&sig` may receive: the row, when the signature is right, the URL
 * has not expired and has not been used. 403 for a signature that does not verify (a changed id,
 * expiry or a forged one), 410 once expired, 409 once used.
 */
export async function checkUpload(ctx: Context, pathname: string, search: string): Promise<StorageUploadRecord> {
  await ensureDownloadSecret(ctx);
  const m = /^\/storage\/([A-Za-z0-9]+)$/.exec(pathname);
  if (!m) throw notFound(`no upload URL at ${pathname}`);
  const q = new URLSearchParams(search);
  const exp = q.get('exp') ?? '';
  const sig = q.get('sig') ?? '';
  const row = await ctx.store.read((tx) => tx.get(StorageUploads, m[1]!));
  if (!row || !sig || !/^\d+$/.test(exp) || !verifySignature(ctx, signed(row, exp), sig, 'upload')) {
    throw forbidden('upload URL refused: its signature does not match (get a new one from generateStorageUploadURL)');
  }
  if (Number(exp) <= ctx.clock.now().getTime()) throw new DocsError('gone', `upload URL expired at ${new Date(Number(exp)).toISOString()}: get a new one`);
  if (row.sha) throw conflict('upload URL already used: it takes one upload (get a new one for another file)');
  return row;
}

/** Stores the received bytes (exactly the declared size) and marks the URL used; a second upload racing this one is refused. */
export async function receiveUpload(ctx: Context, row: StorageUploadRecord, bytes: Buffer): Promise<StorageUploadRecord> {
  if (bytes.length !== row.size) throw invalid(`body: the upload URL is for ${row.size} bytes, got ${bytes.length}`);
  // A font is checked by its bytes before anything is kept (docs/manual/site-delivery.md#custom-fonts).
  const format = row.kind === 'customization_font' ? fontFormat(bytes) : undefined;
  if (row.kind === 'customization_font' && !format) throw invalid('body: the file is not a font (expected WOFF2, WOFF, TrueType or OpenType bytes)');
  const sha = createHash('sha256').update(bytes).digest('hex');
  await writeBlob(ctx, sha, bytes);
  return ctx.store.write((tx) => {
    const cur = tx.get(StorageUploads, row.id);
    if (!cur) throw notFound('upload URL no longer exists');
    if (cur.sha) throw conflict('upload URL already used: it takes one upload (get a new one for another file)');
    return tx.put(StorageUploads, { ...cur, sha, ...(format ? { format } : {}), uploadedAt: ctx.clock.now().toISOString() });
  });
}

/** The upload of an upload URL, in process (`Transport.upload` on the data directory): the checks of `PUT /storage/<id>`. */
export async function acceptUpload(ctx: Context, url: string, bytes: Buffer): Promise<StorageUploadRecord> {
  const u = new URL(url);
  return receiveUpload(ctx, await checkUpload(ctx, u.pathname, u.search.slice(1)), bytes);
}

/** Forgets an upload (its bytes go with the last row naming them): a deleted font's faces. */
export function forgetUpload(tx: WriteTx, key: string): void {
  const m = KEY.exec(key);
  if (m && tx.get(StorageUploads, m[2]!)) tx.delete(StorageUploads, m[2]!);
}

/**
 * The uploaded file a storage key names, for an operation of `organization` that takes one of
 * `kind`: undefined when `key` is not a storage key (the caller then reads it its own way); a
 * 400 naming the key when it is one but names no uploaded file of that organization and kind.
 */
export function uploadedFile(tx: ReadTx, organization: string, key: string, kind: StorageKind, where: string): StorageUploadRecord | undefined {
  const m = KEY.exec(key);
  if (!m) return undefined;
  const row = tx.get(StorageUploads, m[2]!);
  if (!row || row.organization !== organization || m[1] !== organization) throw invalid(`${where}: ${key} is no upload of organization ${organization}`);
  if (row.kind !== kind) throw invalid(`${where}: ${key} was uploaded as ${row.kind}, not ${kind}`);
  if (!row.sha) throw invalid(`${where}: nothing was uploaded to ${key} yet (PUT the file to its upload URL first)`);
  return row;
}
