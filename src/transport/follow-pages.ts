import { DocsError } from '../kernel/errors.js';

// Lists come a page at a time (`next.page`, an opaque cursor). Following them to the end (the
// CLI's --all and pickers, the MCP server's resource list) stops a server whose cursor repeats or
// never ends instead of following it forever: any server may implement the contract, not only ours.

export interface ListBody<T = unknown> {
  items: T[];
  count?: number;
  next?: { page?: string } | null;
  [k: string]: unknown;
}

/** More pages than any real list: 1000 items a page, 10 million items. */
export const MAX_PAGES = 10_000;

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
