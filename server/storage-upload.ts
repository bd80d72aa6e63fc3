import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';

/**
 * PUT /storage/<id>?exp&sig: the one upload a signed URL of generateStorageUploadURL takes
 * (src/content/storage.ts). No token: the signature is the authorization. The body is read up to
 * the declared size and no further (a longer one is a 413 and closes the connection).
 */
export async function serveStorageUpload(ctx: Context, req: IncomingMessage, res: ServerResponse, pathname: string, search: string): Promise<number> {
  if (req.method !== 'PUT')
    throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on ${pathname} (allowed: PUT)`), { allow: ['PUT'] });
  const { checkUpload, receiveUpload, storageKey } = await import('../src/content/storage.js');
  const row = await checkUpload(ctx, pathname, search);
  const tooLarge = () => new DocsError('too_large', `body: the upload URL is for ${row.size} bytes`);
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > row.size) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > row.size) throw tooLarge();
    chunks.push(c);
  }
  const done = await receiveUpload(ctx, row, Buffer.concat(chunks));
  const body = JSON.stringify({ key: storageKey(done), size: done.size });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff' });
  res.end(body);
  return 200;
}
