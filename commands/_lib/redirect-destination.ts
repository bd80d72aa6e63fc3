import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { listAll } from './pages.js';

// Where `docs sites redirects add|update|import` send a path (docs/manual/sites.md#redirects):
//   https://example.com/x     an absolute http(s) URL (kind external)
//   /guides/setup             a path under the site's address: its section, site space and page
//   SPACE_ID:guides/setup.md  a page of one of the site's spaces by its path (kind path)
// The server resolves a page path and checks everything again; this only writes the request.

export const destinationFlag = (required: boolean) =>
  Flags.string({
    description: 'Where to send: an http(s) URL, a path under the site (/guides/setup), or SPACE_ID:path/of/page.md',
    required,
  });

interface SiteShape {
  sections: { id: string; path: string; default: boolean }[];
  siteSpaces: { id: string; path: string; default: boolean; section?: string; space: { id: string } }[];
}

async function siteShape(transport: Transport, organizationId: string, siteId: string): Promise<SiteShape> {
  const scope = { organizationId, siteId };
  const sections = await listAll<any>(transport, 'listSiteSections', scope);
  const siteSpaces = await listAll<any>(transport, 'listSiteSpaces', scope);
  return { sections, siteSpaces };
}

/** A site path (`/section/space/page`) as the site space it is in and the page's path in it. */
export function placeOf(
  shape: SiteShape,
  path: string,
  flag = '--destination',
): { kind: 'path'; spaceId: string; path: string } | { kind: 'site-section'; siteSectionId: string } {
  const segs = path.split(/[?#]/)[0]!.split('/').filter(Boolean);
  let i = 0;
  let section: SiteShape['sections'][number] | undefined;
  if (shape.sections.length) {
    section = shape.sections.find((s) => !s.default && s.path === segs[0]);
    if (section) i++;
    else section = shape.sections.find((s) => s.default);
    if (!section) throw new DocsError('invalid', `${flag}: ${path} is not under a section of this site`);
  }
  const inSection = shape.siteSpaces.filter((ss) => (section ? ss.section === section.id : !ss.section));
  let ss = inSection.find((x) => !x.default && x.path === segs[i]);
  if (ss) i++;
  else ss = inSection.find((x) => x.default);
  if (!ss) {
    if (section && i === segs.length) return { kind: 'site-section', siteSectionId: section.id };
    throw new DocsError('invalid', `${flag}: ${path} is not under a site space of this site`);
  }
  return { kind: 'path', spaceId: ss.space.id, path: segs.slice(i).join('/') };
}

/** The destination object of a `--destination` value. */
export async function destinationOf(
  value: string,
  transport: Transport,
  organizationId: string,
  siteId: string,
  opts: { flag?: string; shape?: SiteShape; relativeTo?: string } = {},
): Promise<unknown> {
  const flag = opts.flag ?? '--destination';
  const v = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(javascript|data|vbscript|file):/i.test(v)) {
    if (!/^https?:\/\//i.test(v)) throw new DocsError('invalid', `${flag}: only http and https URLs may be destinations, got ${v.split(':')[0]}:`);
    return { kind: 'external', url: v };
  }
  const spaced = /^([A-Za-z0-9_-]{8,}):(.*)$/.exec(v);
  if (spaced) return { kind: 'path', spaceId: spaced[1], path: spaced[2] };
  if (v.startsWith('/')) return placeOf(opts.shape ?? (await siteShape(transport, organizationId, siteId)), v, flag);
  if (opts.relativeTo) return { kind: 'path', spaceId: opts.relativeTo, path: v };
  throw new DocsError('invalid', `${flag}: must be an http(s) URL, a path under the site starting with /, or SPACE_ID:path (got ${JSON.stringify(v)})`);
}

export { siteShape };

/** The address prefix of a space in a site (`/guides/api`, '' at the site's root), or undefined when the site does not hold it. */
export function spacePrefix(shape: SiteShape, spaceId: string): string | undefined {
  const ss = shape.siteSpaces.find((x) => x.space.id === spaceId);
  if (!ss) return undefined;
  const section = ss.section ? shape.sections.find((s) => s.id === ss.section) : undefined;
  return `${section && !section.default ? `/${section.path}` : ''}${ss.default ? '' : `/${ss.path}`}`;
}

export interface BulkItem {
  source: string;
  destination: unknown;
  permanent?: boolean;
}

/**
 * `.gitbook.yaml` redirects (`previous/page: new-folder/page.md`, both relative to the space, as
 * GitBook's Git Sync reads them) as site redirects: the source under the space's address in the
 * site, the destination the space's page of that file (or an http(s) URL, or a site path).
 */
export function gitbookRedirects(redirects: Record<string, string>, spaceId: string, prefix: string, permanent = false): BulkItem[] {
  return Object.entries(redirects).map(([from, to]) => {
    const rel = from.trim().replace(/^\/+|\/+$/g, '');
    const v = to.trim();
    const destination = /^https?:\/\//i.test(v) ? { kind: 'external', url: v } : { kind: 'path', spaceId, path: v.replace(/^\.?\/+/, '') };
    return { source: `${prefix}/${rel}`, destination, ...(permanent ? { permanent } : {}) };
  });
}

/** One line per result of bulkUpsertSiteRedirects, and how many failed. */
export function bulkLines(results: { status: string; source: string; draft: boolean; error?: string }[]): { lines: string[]; errors: number } {
  const lines = results.map((r) => (r.status === 'error' ? `✗ ${r.source}: ${r.error}` : `✓ ${r.status} ${r.source}${r.draft ? ' (draft)' : ''}`));
  return { lines, errors: results.filter((r) => r.status === 'error').length };
}
