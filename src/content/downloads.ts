import { contextBase } from '../kernel/context.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from '../kernel/context.js';
import { DocsError } from '../kernel/errors.js';
import type { FileEntry } from './model.js';
import { table } from '../store/port.js';

interface DownloadSecretRow {
  id: string;
  secret: string;
}
/** The download signing secret's row in the `meta` table. */
export const MetaDownloadSecret = table<DownloadSecretRow>('meta');

// `downloadURL` must work without a bearer header (browsers, curl, <img>): it is a URL of
// `docs serve` outside /v1 carrying an expiry and an HMAC-SHA256 signature over
// (space, blob, name, content type, expiry), keyed by a random secret kept in the store's root
// `meta` (one per data directory, made on first use). Anyone holding the URL can download the
// file until it expires (1 hour), like a cloud storage signed URL.

const META_ID = 'download-signing-key';
export const DOWNLOAD_TTL_MS = 60 * 60 * 1000;
const cache = new WeakMap<Context, Buffer>();

/** The signing secret's row, written when a store is initialized (src/auth/bootstrap.ts). */
export function downloadSecretRow() {
  return { id: META_ID, secret: randomBytes(32).toString('base64url') };
}

/** Makes sure the signing secret exists (a write only for a store initialized before it existed). */
/** Whether the download secret is loaded (then `ensureDownloadSecret` need not be awaited). */
export const hasDownloadSecret = (ctx: Context) => cache.has(contextBase(ctx));

export async function ensureDownloadSecret(ctx: Context): Promise<void> {
  if (cache.has(contextBase(ctx))) return;
  const found = await ctx.store.read((tx) => tx.get(MetaDownloadSecret, META_ID));
  const row = found ?? (await ctx.store.write((tx) => tx.get(MetaDownloadSecret, META_ID) ?? tx.put(MetaDownloadSecret, downloadSecretRow())));
  cache.set(contextBase(ctx), Buffer.from(row.secret, 'base64url'));
}

function secret(ctx: Context): Buffer {
  const s = cache.get(contextBase(ctx));
  if (!s) throw new Error('download secret not loaded (call ensureDownloadSecret first)');
  return s;
}

/**
 * HMAC of the parts with the data directory's download secret (also signs PDF URLs,
 * src/pdf/files.ts). The parts are signed as a JSON array, an encoding with one reading: joined
 * by a separator, a name holding that separator could move the split (name `x\ntext/html` with
 * type `text/plain` would verify as name `x`, type `text/html\ntext/plain`). URLs signed by the
 * separator-joined encoding of earlier versions no longer verify (they expire within the hour).
 */
export const sign = (ctx: Context, parts: string[]) => createHmac('sha256', secret(ctx)).update(JSON.stringify(parts)).digest('base64url');

/** The signature of the same parts in the encoding of earlier versions (joined by newlines). */
const legacySign = (ctx: Context, parts: string[]) => createHmac('sha256', secret(ctx)).update(parts.join('\n')).digest('base64url');

const same = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Checks `sig` over `parts`. A signature in the earlier encoding never verifies (that encoding
 * let a name move the split), but it is told apart from a forged or mistyped one: the link was
 * issued by an older version of docs and can never work, so it answers 410 saying so rather than
 * "not found". `what` names the thing for the message (a file, a PDF).
 */
export function verifySignature(ctx: Context, parts: string[], sig: string, what: string): boolean {
  if (same(sign(ctx, parts), sig)) return true;
  if (same(legacySign(ctx, parts), sig))
    throw new DocsError('gone', `this ${what} link was issued by an older version of docs (its signature encoding has changed): get a new link from the API`);
  return false;
}

/** C0 and C1 control characters: never in a served file name or content type (they would end up in headers). */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
/** A content type that can be sent as a header value as it is (printable ASCII). */
export const SERVABLE_TYPE = /^[\x20-\x7e]+$/;

export function fileDownloadUrl(ctx: Context, space: string, f: FileEntry): string {
  // Expiry rounded up to the hour: URLs stay stable within an hour (cacheable, comparable).
  const exp = String(Math.ceil((ctx.clock.now().getTime() + DOWNLOAD_TTL_MS) / DOWNLOAD_TTL_MS) * DOWNLOAD_TTL_MS);
  // Uploads refuse control characters; a file stored before that (or written into the store by
  // other means) is still served, under a name and type fit for headers.
  const name = f.name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '_');
  const type = SERVABLE_TYPE.test(f.contentType) ? f.contentType : 'application/octet-stream';
  const q = new URLSearchParams({ name, type, exp, sig: sign(ctx, [space, f.sha, name, type, exp]) });
  return `${ctx.baseUrl}/files/${space}/${f.sha}?${q}`;
}

/** The blob a download URL names, when its signature is right and it has not expired. */
export async function checkDownload(ctx: Context, pathname: string, search: string): Promise<{ sha: string; name: string; type: string } | undefined> {
  await ensureDownloadSecret(ctx);
  const m = /^\/files\/([A-Za-z0-9]+)\/([a-f0-9]{64})$/.exec(pathname);
  if (!m) return undefined;
  const q = new URLSearchParams(search);
  const [name, type, exp, sig] = ['name', 'type', 'exp', 'sig'].map((k) => q.get(k) ?? '');
  if (CONTROL_CHARS.test(name!)) throw new DocsError('invalid', 'name: control characters are not allowed in a file name');
  if (type && !SERVABLE_TYPE.test(type)) throw new DocsError('invalid', 'type: a content type must be printable ASCII (no control characters)');
  if (!sig || !/^\d+$/.test(exp!)) return undefined;
  if (!verifySignature(ctx, [m[1]!, m[2]!, name!, type!, exp!], sig, 'download')) return undefined;
  if (Number(exp) < ctx.clock.now().getTime()) return undefined;
  return { sha: m[2]!, name: name!, type: type! };
}
