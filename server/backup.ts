import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { bearer, hashToken } from '../src/auth/tokens.js';
import type { Context } from '../src/kernel/context.js';
import { DocsError } from '../src/kernel/errors.js';
import { header } from './body.js';

/**
 * POST /_docs/backup: a .tar.gz snapshot of the data directory, at a commit boundary, for
 * `docs backup` run while this server holds the directory (src/store/backup.ts). Only the
 * session token of this process (in the owner-only lock file) may ask: it is the directory's
 * owner asking, not an API caller.
 */
export async function serveBackup(ctx: Context, req: IncomingMessage, res: ServerResponse): Promise<number> {
  if (req.method !== 'POST')
    throw Object.assign(new DocsError('method_not_allowed', `${req.method} is not allowed on /_docs/backup (allowed: POST)`), { allow: ['POST'] });
  const token = bearer(header(req, 'authorization'));
  if (!token || !ctx.sessionTokens.has(hashToken(token)))
    throw new DocsError('unauthenticated', 'a backup is asked with the session token of the server (docs backup reads it from the lock file)');
  const [{ FileBackend }, { backupStream }] = await Promise.all([import('../src/store/file-backend.js'), import('../src/store/backup.js')]);
  const backend = (ctx.store as { backend?: unknown }).backend;
  if (!(backend instanceof FileBackend))
    throw new DocsError('invalid', 'this server keeps its rows in PostgreSQL: back them up with pg_dump (docs backup is for data directories)');
  const { stream, files } = await backupStream(backend);
  res.writeHead(200, { 'content-type': 'application/gzip', 'x-docs-files': String(files) });
  await pipeline(stream, res);
  return 200;
}
