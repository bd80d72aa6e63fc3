import type { Transport } from '../../src/transport/types.js';
import { flattenLocal, pageFile, type LocalPage } from './content-folder.js';
import { listAll } from './pages.js';
import { bulkLines, gitbookRedirects, siteShape, spacePrefix } from './redirect-destination.js';

// `content push`: a `.gitbook.yaml`'s `redirects:` become the redirects of every site that
// publishes the pushed space (or of --site), in one bulkUpsertSiteRedirects call per site
// (docs/manual/sites.md#redirects). The file itself still travels with the space, so pull writes
// it back unchanged.

const MAX = 500;

/** The page path of each file of the folder (`guides/setup.md` → `guides/setup`), as push makes them. */
export function pagePathsOf(pages: LocalPage[]): Map<string, string> {
  return new Map(
    flattenLocal(pages)
      .filter((x) => !x.page.group && x.page.link === undefined)
      .map((x) => [pageFile(x.page.path, x.page.children.length > 0), x.page.path]),
  );
}

export interface PushedRedirects {
  sites: { site: string; results: { status: string; source: string; draft: boolean; error?: string }[] }[];
  lines: string[];
  errors: number;
}

/** Upserts (or, dry, only lists) the redirects into the space's sites. */
export async function pushRedirects(
  transport: Transport,
  spaceId: string,
  redirects: Record<string, string>,
  files: Map<string, string>,
  opts: { site?: string; dry?: boolean } = {},
): Promise<PushedRedirects> {
  const out: PushedRedirects = { sites: [], lines: [], errors: 0 };
  const count = Object.keys(redirects).length;
  if (!count) return out;
  // A file the folder has is named by its page's path (SUMMARY.md may place it elsewhere).
  const mapped = Object.fromEntries(Object.entries(redirects).map(([from, to]) => [from, files.get(to.replace(/^\.?\/+/, '')) ?? to]));
  const space = (await transport.call('getSpaceById', { path: { spaceId } })).body as { organization: string };
  const organizationId = space.organization;
  const sites = opts.site ? [opts.site] : (await listAll<{ id: string }>(transport, 'listSites', { organizationId }, { space: spaceId })).map((s) => s.id);
  if (!sites.length) out.lines.push(`.gitbook.yaml: ${count} redirect${count === 1 ? '' : 's'} kept with the space (no site publishes it)`);
  for (const siteId of sites) {
    const shape = await siteShape(transport, organizationId, siteId);
    const prefix = spacePrefix(shape, spaceId);
    if (prefix === undefined) {
      out.lines.push(`✗ site ${siteId}: space ${spaceId} is not in it: redirects not sent`);
      out.errors++;
      continue;
    }
    const items = gitbookRedirects(mapped, spaceId, prefix);
    if (opts.dry) {
      out.lines.push(`Would upsert ${items.length} redirect${items.length === 1 ? '' : 's'} into site ${siteId}:`);
      for (const i of items) out.lines.push(`  ${i.source} → ${(i.destination as any).url ?? (i.destination as any).path}`);
      continue;
    }
    const results = [];
    for (let k = 0; k < items.length; k += MAX)
      results.push(
        ...((await transport.call('bulkUpsertSiteRedirects', { path: { organizationId, siteId }, body: { redirects: items.slice(k, k + MAX) } })).body as any)
          .results,
      );
    const { lines, errors } = bulkLines(results);
    out.sites.push({ site: siteId, results });
    out.lines.push(`Redirects of site ${siteId}: ${results.length - errors} of ${results.length} upserted`, ...lines.filter((l) => l.startsWith('✗')));
    out.errors += errors;
  }
  return out;
}
