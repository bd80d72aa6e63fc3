import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBlob } from '../src/content/blobs.js';
import { checkDownload } from '../src/content/downloads.js';
import type { Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';

/** GET /files/<space>/<sha>?name&type&exp&sig: the bytes, with their content type. */
export async function serveDownload(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET', 'HEAD'] });
  const ok = await checkDownload(ctx, pathname, search);
  // A bad or expired signature is indistinguishable from a missing file.
  const bytes = ok && (await readBlob(ctx, ok.sha));
  if (!ok || !bytes) throw new DocsError('not_found', 'file not found (or the download URL expired: get a new one from the API)');
  res.writeHead(200, {
    'content-type': ok.type,
    'content-length': bytes.length,
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(ok.name)}`,
    'cache-control': 'private, max-age=300',
  });
  res.end(req.method === 'HEAD' ? undefined : bytes);
  return 200;
}

/** GET /pdf/<space>/<key>.pdf?name&exp&sig: a rendered PDF (src/pdf/files.ts), shown inline. */
export async function servePdf(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: GET)`), { allow: ['GET', 'HEAD'] });
  const { checkPdfDownload } = await import('../src/pdf/files.js');
  const ok = await checkPdfDownload(ctx, pathname, search);
  if (!ok) throw new DocsError('not_found', 'PDF not found (or its URL expired: ask the API for a new one)');
  res.writeHead(200, {
    'content-type': 'application/pdf',
    'content-length': ok.bytes.length,
    'content-disposition': `inline; filename*=UTF-8''${encodeURIComponent(ok.name)}`,
    'cache-control': 'private, max-age=300',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : ok.bytes);
  return 200;
}
