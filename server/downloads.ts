import type { IncomingMessage, ServerResponse } from 'node:http';
import { create as contentDisposition } from 'content-disposition';
import { readBlob } from '../src/content/blobs.js';
import { checkDownload } from '../src/content/downloads.js';
import type { Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';

// Every download is served so that a browser cannot run it as a page of this origin: no type
// sniffing, a sandboxing CSP, and files always as attachments (HTML, SVG, XML and scripts above
// all). The name goes in an RFC 6266 `Content-Disposition` (an ASCII `filename` fallback plus
// `filename*=UTF-8''...`); names and types with control characters never reach here (400).
const SAFE_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "sandbox; default-src 'none'" };

/** GET /files/<space>/<sha>?name&type&exp&sig: the bytes, with their content type. */
export async function serveDownload(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET', 'HEAD'] });
  const ok = await checkDownload(ctx, pathname, search);
  // A bad or expired signature is indistinguishable from a missing file.
  const bytes = ok && (await readBlob(ctx, ok.sha));
  if (!ok || !bytes) throw new DocsError('not_found', 'file not found (or the download URL expired: get a new one from the API)');
  res.writeHead(200, {
    'content-type': ok.type || 'application/octet-stream',
    'content-length': bytes.length,
    'content-disposition': contentDisposition(ok.name || 'download', { type: 'attachment' }),
    'cache-control': 'private, max-age=300',
    ...SAFE_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return 200;
}

/** GET /pdf/<space>/<key>.pdf?name&exp&sig: a rendered PDF (src/pdf/files.ts), shown inline. */
export async function servePdf(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET', 'HEAD'] });
  const { checkPdfDownload } = await import('../src/pdf/files.js');
  const ok = await checkPdfDownload(ctx, pathname, search);
  if (!ok) throw new DocsError('not_found', 'PDF not found (or its URL expired: ask the API for a new one)');
  res.writeHead(200, {
    'content-type': 'application/pdf',
    'content-length': ok.bytes.length,
    'content-disposition': contentDisposition(ok.name || 'export.pdf', { type: 'inline' }),
    'cache-control': 'private, max-age=300',
    // No sandboxing CSP here: browsers do not open their PDF viewer in a sandboxed document.
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : ok.bytes);
  return 200;
}

/** GET /fonts/<fontId>/<weight>: a custom font's face, for any page (docs/manual/site-delivery.md#on-a-published-site). */
export async function serveFont(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET', 'HEAD'] });
  const m = /^\/fonts\/([^/]+)\/([^/]+)$/.exec(pathname);
  const { fontFile } = await import('../src/sites/font-operations.js');
  const found = m && (await fontFile(ctx, m[1]!, m[2]!));
  if (!found) throw new DocsError('not_found', 'font not found');
  sendFont(req, res, found);
  return 200;
}

/** A font's bytes: an hour in caches (a face replaced under the same weight shows within the hour). */
export function sendFont(req: IncomingMessage, res: ServerResponse, found: { bytes: Buffer; type: string }): void {
  res.writeHead(200, {
    'content-type': found.type,
    'content-length': found.bytes.length,
    'cache-control': 'public, max-age=3600',
    'access-control-allow-origin': '*',
    ...SAFE_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : found.bytes);
}
