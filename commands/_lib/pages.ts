import * as Flags from '@oclif/core/flags';
import { collectPages, MAX_PAGES, type ListBody } from '../../src/transport/follow-pages.js';
import type { Transport } from '../../src/transport/types.js';

// The CLI's side of lists, a page at a time (`next.page`): --page, --all (following the cursors
// to the end through src/transport/follow-pages.ts, which stops a cursor that repeats or never
// ends), and the hint that a list has more, on stderr, never stdout.

export { collectPages, MAX_PAGES, type ListBody };

/** The one wording of --page, for every list (operation and hand-written commands alike). */
export const PAGE_DESCRIPTION = 'Which page: the cursor a previous list printed ("More: --page ...")';
export const pageFlag = () => Flags.string({ description: PAGE_DESCRIPTION });

export const allFlag = () => Flags.boolean({ description: 'Fetch every page: follow next.page to the end', exclusive: ['page'] });

/** "Showing 100 of 115. More: --page X" on stderr, when the list has more. */
export function moreHint(list: ListBody): void {
  if (!list.next?.page) return;
  const of = typeof list.count === 'number' ? ` of ${list.count}` : '';
  process.stderr.write(`Showing ${list.items.length}${of}. More: --page ${list.next.page} (or --all)\n`);
}

/** Every item of a list operation, following next.page (guarded against a looping cursor). */
export async function listAll<T>(transport: Transport, operationId: string, path: Record<string, string>, query: Record<string, unknown> = {}): Promise<T[]> {
  const get = async (page?: string) =>
    (await transport.call(operationId, { path, query: { ...query, limit: 1000, ...(page ? { page } : {}) } })).body as ListBody<T>;
  return (await collectPages(await get(), get)).items;
}
