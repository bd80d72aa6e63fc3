import { contractCheck } from './contract.js';

/** An answer an official client received: its operation, and its problem under each spec. */
export interface Seen {
  operationId: string;
  status: number;
  problems: string[];
}

/**
 * A fetch for an official client's `serviceBinding` (what @gitbook/api uses instead of the global
 * fetch, and what its installation client inherits): each success answer is checked against both
 * specs and noted in `seen`, then handed to the client as it came. The path is checked as the
 * client wrote it (pathname keeps its escapes: `guide/setup` unencoded stays so). Streams
 * (server-sent events) are checked by their own tests: here their status only.
 */
export function checkingFetch(seen: Seen[]) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (res.ok) {
      const text = await res.clone().text();
      const type = res.headers.get('content-type') ?? '';
      const body = text && /json/.test(type) ? JSON.parse(text) : type.startsWith('text/event-stream') ? undefined : text || undefined;
      const c = contractCheck(method, url.pathname, res.status, body);
      seen.push({ operationId: c.operationId, status: res.status, problems: [c.pinned, c.latest].filter((p): p is string => !!p) });
    }
    return res;
  };
}
