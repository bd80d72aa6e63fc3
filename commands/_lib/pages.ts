import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';

// Lists come a page at a time (`next.page`, an opaque cursor). `--all` follows the cursors to the
// end; a server whose cursor repeats or never ends is stopped, not followed forever (any server
// may implement the contract, not only ours). A partial list says so on stderr, never stdout.

export interface ListBody<T = unknown> {
  items: T[];
  count?: number;
  next?: { page?: string } | null;
  [k: string]: unknown;
}

/** More pages than any real list: 1000 items a page, 10 million items. */
export const MAX_PAGES = 10_000;

/** The one wording of --page, for every list (operation and hand-written commands alike). */
export const PAGE_DESCRIPTION = 'Which page: the cursor a previous list printed ("More: --page ...")';
export const pageFlag = () => Flags.string({ description: PAGE_DESCRIPTION });

export const allFlag = () => Flags.boolean({ description: 'Fetch every page: follow next.page to the end', exclusive: ['page'] });

/** The first page and every next one, as one list without `next`. */
export async function collectPages<T>(first: ListBody<T>, fetch: (page: string) => Promise<ListBody<T>>): Promise<ListBody<T>> {
  const items = [...first.items];
  const seen = new Set<string>();
  let current = first;
  while (current.next?.page) {
    const page = current.next.page;
    if (seen.has(page)) throw new DocsError('unavailable', `the server's next.page repeats (${page}): stopped after ${items.length} items instead of looping`);
    if (seen.size >= MAX_PAGES) throw new DocsError('unavailable', `more than ${MAX_PAGES} pages: stopped after ${items.length} items`);
    seen.add(page);
    current = await fetch(page);
    items.push(...current.items);
  }
  const { next: _next, ...rest } = first;
  return { ...rest, items } as ListBody<T>;
}

/** "Showing 100 of 115. More: --page X" on stderr, when the list has more. */
export function moreHint(list: ListBody): void {
  if (!list.next?.page) return;
  const of = typeof list.count === 'number' ? ` of ${list.count}` : '';
  process.stderr.write(`Showing ${list.items.length}${of}. More: --page ${list.next.page} (or --all)\n`);
}

/** Every item of a list operation, following next.page (guarded against a looping cursor). */
export async function listAll<T>(transport: Transport, operationId: string, path: Record<string, string>, query: Record<string, unknown> = {}): Promise<T[]> {
  const get = async (page?: string) => (await transport.call(operationId, { path, query: { ...query, limit: 1000, ...(page ? { page } : {}) } })).body as ListBody<T>;
  return (await collectPages(await get(), get)).items;
}
