import { parse } from 'parse5';
import { expect } from 'vitest';
import type { TestServer } from '../helpers/server.js';

// Building published sites through the API, and reading their HTML as a browser would parse it.

export function api(s: TestServer) {
  const call = async (method: string, path: string, body?: unknown, status?: number) => {
    const r = await s.api(method, path, body === undefined ? {} : { body });
    if (status !== undefined) expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
    else expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
    return r.body;
  };
  return call;
}

/** A space with pages written through a merged change request; returns the space and its pages by title. */
export async function spaceWith(s: TestServer, org: string, title: string, changes: object[]) {
  const call = api(s);
  const space = await call('POST', `/v1/orgs/${org}/spaces`, { title });
  await edit(s, space.id, changes);
  return { space, pages: await pagesByTitle(s, space.id) };
}

export async function edit(s: TestServer, spaceId: string, changes: object[]) {
  const call = api(s);
  const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Edit' });
  await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes });
  await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
}

export async function pagesByTitle(s: TestServer, spaceId: string): Promise<Record<string, any>> {
  const out: Record<string, any> = {};
  const walk = (pages: any[]) => pages.forEach((p) => ((out[p.title] = p), walk(p.pages ?? [])));
  walk((await api(s)('GET', `/v1/spaces/${spaceId}/content/pages`)).pages);
  return out;
}

export const page = (ref: string, title: string, markdown: string, extra: object = {}) => ({
  operation: 'insert_page',
  ref,
  title,
  document: { markdown },
  ...extra,
});

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  doc: any;
}

/** A GET without following redirects (cookies given as a header). */
export async function get(s: TestServer, path: string, cookie?: string): Promise<Got> {
  const url = path.startsWith('http') ? path : s.url + path;
  const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, doc: res.headers.get('content-type')?.startsWith('text/html') ? parse(text) : undefined };
}

// A few DOM queries over parse5's tree.
export function all(node: any, pred: (n: any) => boolean, out: any[] = []): any[] {
  if (node.tagName && pred(node)) out.push(node);
  for (const c of node.childNodes ?? []) all(c, pred, out);
  for (const c of node.content?.childNodes ?? []) all(c, pred, out);
  return out;
}
export const attrOf = (n: any, name: string) => n.attrs?.find((a: any) => a.name === name)?.value;
export const textOf = (n: any): string => (n.nodeName === '#text' ? n.value : (n.childNodes ?? []).map(textOf).join(''));
export const byTag = (doc: any, tag: string) => all(doc, (n) => n.tagName === tag);
export const byClass = (doc: any, cls: string) => all(doc, (n) => (attrOf(n, 'class') ?? '').split(/\s+/).includes(cls));
export const byLabel = (doc: any, label: string) => all(doc, (n) => attrOf(n, 'aria-label') === label)[0];
export const links = (n: any) => byTag(n, 'a').map((a) => ({ text: textOf(a).trim(), href: attrOf(a, 'href') }));
export const mainOf = (doc: any) => byTag(doc, 'main')[0];
export const h1 = (doc: any) => textOf(byTag(mainOf(doc), 'h1')[0] ?? {}).trim();
