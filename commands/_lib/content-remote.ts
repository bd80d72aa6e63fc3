import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { collectPages, type ListBody } from './pages.js';

// The content of a space (current revision) or of one of its change requests, as the API gives
// it, reduced to what `docs content push|pull` compare: pages by path, files by name.

export interface RemotePage {
  id: string;
  path: string;
  title: string;
  fields: Record<string, unknown>;
  markdown: string;
  children: RemotePage[];
}

export interface RemoteFile {
  id: string;
  name: string;
  size: number;
  downloadURL: string;
}

const FIELDS = ['description', 'emoji', 'icon', 'hidden'] as const;

export function pageFields(p: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) if (p[k] !== undefined && p[k] !== '' && p[k] !== false) out[k] = p[k];
  return out;
}

export async function remoteContent(transport: Transport, spaceId: string, changeRequest?: string): Promise<{ pages: RemotePage[]; files: RemoteFile[] }> {
  const path: Record<string, string> = changeRequest ? { spaceId, changeRequestId: changeRequest } : { spaceId };
  const listed = (await transport.call(changeRequest ? 'listPagesInChangeRequest' : 'listPages', { path })).body as { pages: any[] };
  const toPage = (p: any): RemotePage[] =>
    p.type === 'link' ? [] : [{ id: p.id, path: p.path, title: p.title, fields: pageFields(p), markdown: p.type === 'document' ? p.markdown : (p.markdown ?? ''), children: (p.pages ?? []).flatMap(toPage) }];
  const pages = listed.pages.flatMap(toPage);
  // The contract's listPages need not carry each page's text (ours does; GitBook's gives the
  // tree only): ask each page without it for its markdown, rather than write empty files.
  const textless = flattenRemote(pages).map((x) => x.page).filter((p) => typeof p.markdown !== 'string');
  for (let i = 0; i < textless.length; i += 8) {
    await Promise.all(textless.slice(i, i + 8).map(async (p) => {
      const got = (await transport.call(changeRequest ? 'getPageInChangeRequestById' : 'getPageById', { path: { ...path, pageId: p.id }, query: { format: 'markdown' } })).body as any;
      if (typeof got?.markdown !== 'string') throw new DocsError('unavailable', `page ${p.path} (${p.id}): the server gave no markdown for it, even with format=markdown`);
      p.markdown = got.markdown;
    }));
  }
  const listFiles = async (page?: string) => (await transport.call(changeRequest ? 'listFilesInChangeRequestById' : 'listFiles', { path, query: { limit: 1000, ...(page ? { page } : {}) } })).body as ListBody<any>;
  const files: RemoteFile[] = (await collectPages(await listFiles(), listFiles)).items.map((f: any) => ({ id: f.id, name: f.name, size: f.size, downloadURL: f.downloadURL }));
  return { pages, files };
}

export const flattenRemote = (pages: RemotePage[], parent: string | null = null): { page: RemotePage; parent: string | null; index: number }[] =>
  pages.flatMap((page, index) => [{ page, parent, index }, ...flattenRemote(page.children, page.id)]);
