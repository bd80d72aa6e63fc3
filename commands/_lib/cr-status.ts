import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { listAll } from './pages.js';

// `cr list --status all` (and `cr list-org`), as gh's `--state all`: the API lists one status at
// a time (open when left out), so "all" is one full list per status, newest first. Every page of
// each is fetched (as --all): a cursor would not say which status it belongs to.

export const CR_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;

export const statusFlag = () =>
  Flags.string({ description: 'Only those with this status (default: open; all: every status)', options: [...CR_STATUSES, 'all'] });

type Req = { path: Record<string, string>; query: Record<string, unknown> };

/** prepare: "all" is not the API's; it is taken out of the query (and answered by allStatuses). */
export function dropAll(req: Req, flags: Record<string, any>): void {
  if (flags.status !== 'all') return;
  if (flags.page !== undefined)
    throw new DocsError('invalid', '--page does not go with --status all, which lists every page of every status (see docs cr list --help)');
  delete req.query.status;
}

/** call: with --status all, the lists of every status in one (newest first); else the usual call. */
export function allStatuses(operationId: string) {
  return async (req: Req, flags: Record<string, any>, transport: Transport) => {
    if (flags.status !== 'all') return undefined;
    const { page: _page, limit: _limit, ...query } = req.query;
    const lists = await Promise.all(CR_STATUSES.map((status) => listAll<any>(transport, operationId, req.path, { ...query, status })));
    const items = lists.flat().sort((a, b) => String(b.updatedAt ?? b.createdAt).localeCompare(String(a.updatedAt ?? a.createdAt)));
    return { status: 200, body: { items, count: items.length } };
  };
}
