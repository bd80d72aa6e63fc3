import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '../../kernel/context.js';
import { DocsError } from '../../kernel/errors.js';

export async function serveApp(_ctx: Context, req: IncomingMessage, _res: ServerResponse, pathname: string, _search: string): Promise<number> {
  throw new DocsError('not_found', `no route for ${req.method} ${pathname}`);
}
