import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../../src/kernel/errors.js';
import { operationCommand } from '../../_lib/operation-command.js';
import { bulkLines, destinationOf, gitbookRedirects, siteShape, spacePrefix, type BulkItem } from '../../_lib/redirect-destination.js';

const require = createRequire(import.meta.url);
const MAX = 500;

// `docs sites redirects import SITE --file F`: a `.gitbook.yaml` (its `redirects:`, relative to
// --space's address in the site) or a YAML/JSON mapping of site paths (`/old: /new` or an
// http(s) URL), as one bulkUpsertSiteRedirects call. docs/manual/sites.md#redirects

export default operationCommand({
  operationId: 'bulkUpsertSiteRedirects',
  description: 'Import redirects into a site from a .gitbook.yaml (its redirects:) or a YAML/JSON map of paths, in one call',
  examples: [
    '<%= config.bin %> sites redirects import szK9Qp2mTtR4bLx0aVn1 --file docs/.gitbook.yaml --space spc4Lx9QmWz2Rt7HnB0a',
    '<%= config.bin %> sites redirects import szK9Qp2mTtR4bLx0aVn1 --file redirects.yaml --permanent',
  ],
  orgFlag: true,
  flags: {
    file: Flags.string({ description: 'A .gitbook.yaml, or a YAML/JSON mapping of old path to destination', required: true }),
    space: Flags.string({ description: "The space a .gitbook.yaml's paths are relative to (default: the site's only space)" }),
    permanent: Flags.boolean({ description: 'Make the redirects permanent (301)' }),
  },
  prepare: async (req, f, transport) => {
    let data: any;
    try {
      data = (require('yaml') as typeof import('yaml')).parse(readFileSync(f.file, 'utf8'));
    } catch (err) {
      throw new DocsError('invalid', `--file ${f.file}: ${(err as Error).message.split('\n')[0]}; nothing was sent`);
    }
    const gitbook = data && typeof data === 'object' && !Array.isArray(data) && ('redirects' in data || 'root' in data || 'structure' in data);
    const map = gitbook ? (data.redirects ?? {}) : data;
    if (!map || typeof map !== 'object' || Array.isArray(map) || Object.values(map).some((v) => typeof v !== 'string'))
      throw new DocsError('invalid', `--file ${f.file}: must map old paths to destinations (old/page: new/page.md); nothing was sent`);
    if (!Object.keys(map).length) throw new DocsError('invalid', `--file ${f.file}: no redirects in it; nothing was sent`);
    if (Object.keys(map).length > MAX) throw new DocsError('invalid', `--file ${f.file}: ${Object.keys(map).length} redirects, at most ${MAX} per import`);
    const { organizationId, siteId } = req.path as { organizationId: string; siteId: string };
    const shape = await siteShape(transport, organizationId, siteId);
    let items: BulkItem[];
    if (gitbook) {
      const spaceId = f.space ?? (shape.siteSpaces.length === 1 ? shape.siteSpaces[0]!.space.id : undefined);
      if (!spaceId) throw new DocsError('invalid', `--space: the site has ${shape.siteSpaces.length} spaces: say which one the file's paths are relative to`);
      const prefix = spacePrefix(shape, spaceId);
      if (prefix === undefined) throw new DocsError('invalid', `--space: space ${spaceId} is not in site ${siteId}`);
      items = gitbookRedirects(map, spaceId, prefix, f.permanent);
    } else {
      items = [];
      for (const [from, to] of Object.entries<string>(map))
        items.push({
          source: `/${from.trim().replace(/^\/+|\/+$/g, '')}`,
          destination: await destinationOf(to, transport, organizationId, siteId, { flag: `--file ${from}`, shape, relativeTo: f.space }),
          ...(f.permanent ? { permanent: true } : {}),
        });
    }
    req.body = { redirects: items };
  },
  summary: (b) => {
    const { lines, errors } = bulkLines(b.results);
    if (errors) process.exitCode = 1;
    return [...lines, `${b.results.length - errors} of ${b.results.length} redirects imported${errors ? `, ${errors} refused` : ''}`].join('\n');
  },
});
