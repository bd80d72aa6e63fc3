import type { IncomingMessage } from 'node:http';
import { DocsError } from '../src/kernel/errors.js';

/** Largest request body accepted (16 MiB, room for a batch of base64 files); larger is a 413. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads and parses a JSON body. `undefined` when there is none. */
/** No length and no chunked encoding: HTTP/1.1 says there is no body (most reads). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new DocsError('too_large', `body: larger than the limit of ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw new DocsError('too_large', `body: larger than the limit of ${limit} bytes`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  const type = String(req.headers['content-type'] ?? '');
  if (type && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new DocsError('invalid', `body: Content-Type must be application/json, got ${type}`);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DocsError('invalid', `body: malformed JSON (${(err as Error).message})`);
  }
}
