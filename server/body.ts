import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { DocsError } from '../src/kernel/errors.js';
import { MAX_BODY_BYTES } from '../src/kernel/limits.js';

/** Largest request body accepted (src/kernel/limits.ts); larger is a 413. */
export { MAX_BODY_BYTES };

/**
 * The first value of a request header (`name` in lower case), from the raw header list: the
 * first use of `req.headers` builds an object of every header, a cost on each read request.
 * The first value is also what `req.headers` keeps for the headers read here.
 */
export function header(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!;
    if (k.length === name.length && k.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

/** No length and no chunked encoding: HTTP/1.1 says there is no body (most reads). */
export function hasBody(req: IncomingMessage): boolean {
  return header(req, 'content-length') !== undefined || header(req, 'transfer-encoding') !== undefined;
}

/**
 * The status Node's parser errors were answered with on a connection (server/serve.ts's
 * `clientError` handler writes it straight to the socket): a request whose body then fails to
 * read is logged with what the client really got, not as the handler's own error.
 */
const answeredOn = new WeakMap<Socket, number>();
export const recordClientError = (socket: Socket, status: number) => void answeredOn.set(socket, status);
export const clientErrorStatus = (req: IncomingMessage): number | undefined => answeredOn.get(req.socket);

/** Reads and parses a JSON body. `undefined` when there is none. */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw new DocsError('too_large', `body: larger than the limit of ${limit} bytes`);
  const { chunks, size } = await readChunks(req, limit);
  if (size === 0) return undefined;
  return parseJson(req, chunks);
}

/**
 * The body's chunks, read by listeners rather than `for await`: the stream's async iterator (its
 * generator, end-of-stream watcher and a promise a chunk) was ~4% of a busy server's main thread
 * under small writes. As the iterator did, the request is destroyed when reading stops early.
 */
function readChunks(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (req.readableEnded) return Promise.resolve({ chunks, size });
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (err: DocsError) => {
      cleanup();
      req.destroy();
      reject(err);
    };
    // The stream broke mid-body (malformed chunked encoding, a client that went away): the
    // client's fault, never a server error.
    const cutShort = (cause: unknown) => new DocsError('invalid', 'body: malformed or cut short (the request body could not be read)', { cause });
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new DocsError('too_large', `body: larger than the limit of ${limit} bytes`));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ chunks, size });
    };
    const onError = (err: Error) => fail(cutShort(err));
    const onClose = () => fail(cutShort(new Error('the request closed before its body ended')));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    if (req.destroyed) onClose();
  });
}

function parseJson(req: IncomingMessage, chunks: Buffer[]): unknown {
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
