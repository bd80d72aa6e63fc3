import { contextBase } from '../kernel/context.js';
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTROL_CHARS, DOWNLOAD_TTL_MS, ensureDownloadSecret, sign, verifySignature } from '../content/downloads.js';
import { DocsError } from '../kernel/errors.js';
import type { Context } from '../kernel/context.js';
import { stageFile, syncDir } from '../store/durable-file.js';

// Rendered PDFs live beside the store, `<data>/pdf/<key[0:2]>/<key>.pdf`, named by a key that
// hashes what they were rendered from (revision, selection, title, renderer version): revisions
// are immutable, so the same request renders once and every later one reuses the file. Without
// a data directory (in-memory servers) they stay in memory.
//
// They are reached like file downloads (src/content/downloads.ts): `{base}/pdf/<space>/<key>.pdf
// ?name&exp&sig`, served by `docs serve` outside /v1 without a bearer header, the signature an
// HMAC over (space, key, name, expiry) with the data directory's download secret. Only a caller
// who may read the space gets such a URL (the API operations check); it works for one hour, as
// the contract says. The path is matched by a strict pattern, never joined from request text.

const memory = new WeakMap<Context, Map<string, Buffer>>();
const mem = (ctx: Context) => {
  let m = memory.get(contextBase(ctx));
  if (!m) memory.set(contextBase(ctx), (m = new Map()));
  return m;
};

const pdfPath = (dataDir: string, key: string) => join(dataDir, 'pdf', key.slice(0, 2), `${key}.pdf`);
const KEY = /^[a-f0-9]{64}$/;

export async function readPdf(ctx: Context, key: string): Promise<Buffer | undefined> {
  if (!KEY.test(key)) return undefined;
  if (!ctx.dataDir) return mem(ctx).get(key);
  try {
    return await readFile(pdfPath(ctx.dataDir, key));
  } catch (err: any) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function hasPdf(ctx: Context, key: string): Promise<boolean> {
  if (!ctx.dataDir) return mem(ctx).has(key);
  return stat(pdfPath(ctx.dataDir, key)).then(
    () => true,
    () => false,
  );
}

/** Writes durably (temp file, fsync, rename, directory fsync): a URL never names half a file. */
export async function writePdf(ctx: Context, key: string, bytes: Buffer): Promise<void> {
  if (!ctx.dataDir) return void mem(ctx).set(key, bytes);
  const file = pdfPath(ctx.dataDir, key);
  await mkdir(join(file, '..'), { recursive: true, mode: 0o700 }); // the data directory is the owner's alone
  await rename(await stageFile(file, bytes as any), file);
  await syncDir(join(file, '..'));
}

// The first part cannot be a space id (those have no '/'): a PDF signature never fits a file URL.
const parts = (space: string, key: string, name: string, exp: string) => ['pdf/', space, key, name, exp];

export async function pdfUrl(ctx: Context, space: string, key: string, name: string): Promise<string> {
  await ensureDownloadSecret(ctx);
  // Expiry rounded up to the hour, as for file downloads: the URL is stable within an hour.
  const exp = String(Math.ceil((ctx.clock.now().getTime() + DOWNLOAD_TTL_MS) / DOWNLOAD_TTL_MS) * DOWNLOAD_TTL_MS);
  const q = new URLSearchParams({ name, exp, sig: sign(ctx, parts(space, key, name, exp)) });
  return `${ctx.baseUrl}/pdf/${space}/${key}.pdf?${q}`;
}

/** The stored PDF a URL names, when its signature is right and it has not expired. */
export async function checkPdfDownload(ctx: Context, pathname: string, search: string): Promise<{ key: string; name: string; bytes: Buffer } | undefined> {
  await ensureDownloadSecret(ctx);
  const m = /^\/pdf\/([A-Za-z0-9]+)\/([a-f0-9]{64})\.pdf$/.exec(pathname);
  if (!m) return undefined;
  const q = new URLSearchParams(search);
  const [name, exp, sig] = ['name', 'exp', 'sig'].map((k) => q.get(k) ?? '') as [string, string, string];
  if (CONTROL_CHARS.test(name)) throw new DocsError('invalid', 'name: control characters are not allowed in a file name');
  if (!sig || !/^\d+$/.test(exp)) return undefined;
  if (!verifySignature(ctx, parts(m[1]!, m[2]!, name, exp), sig, 'PDF')) return undefined;
  if (Number(exp) < ctx.clock.now().getTime()) return undefined;
  const bytes = await readPdf(ctx, m[2]!);
  return bytes && { key: m[2]!, name, bytes };
}
