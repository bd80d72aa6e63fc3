import { createHash } from 'node:crypto';
import type { AskQuestionRecord } from '../ask/model.js';
import { AskQuestions } from '../ask/tables.js';
import type { FileEntry, PageNode } from '../content/model.js';
import { markdownOf, treeOf } from '../content/revisions.js';
import { flatten } from '../content/tree.js';
import type { SiteRecord, SiteSpaceRecord } from '../sites/model.js';
import { siteSpacesOfSite } from '../sites/rows.js';
import { SiteSections } from '../sites/tables.js';
import type { SpaceRecord } from '../spaces/model.js';
import { Revisions, Spaces } from '../spaces/tables.js';
import type { ReadTx } from '../store/port.js';
import type { ContextRecordRow } from './model.js';
import { ContextRecords } from './tables.js';
import { SCAN_LIMITS } from './finding-model.js';

// What a scan reads of a site, in one store read (docs/manual/site-findings.md#what-a-scan-reads):
// the questions asked on it, the records its connections brought in, and the pages of its site
// spaces at their current revisions (what the published site shows). The fingerprint is a hash
// of what changes them (question counts and flags, record versions, the spaces' revisions), cheap
// to compute: the worker compares it with the last scan's to know whether to scan again.

export interface ScanPage {
  space: SpaceRecord;
  siteSpace: SiteSpaceRecord;
  node: PageNode;
  /** Its path in the space. */
  path: string;
  /** Its path on the site: the section's and the site space's paths (unless default) and its own. */
  sitePath: string;
  markdown: string;
  /** When its space's current revision was made: the page is unchanged since at least then. */
  revisionAt: string;
}

export interface ScanInputs {
  site: SiteRecord;
  spaces: SpaceRecord[];
  questions: AskQuestionRecord[];
  records: ContextRecordRow[];
  pages: ScanPage[];
  /** Each space's page tree and files at its current revision (links resolve against them). */
  trees: Map<string, { pages: PageNode[]; files: FileEntry[] }>;
  fingerprint: string;
}

/** The site's questions and records, the most recent SCAN_LIMITS.evidence of each. */
export function evidenceOf(tx: ReadTx, site: SiteRecord) {
  const questions = tx
    .find(AskQuestions, 'organization', site.organization)
    .filter((q) => q.site === site.id)
    .sort((a, b) => b.lastAskedAt.localeCompare(a.lastAskedAt) || a.id.localeCompare(b.id))
    .slice(0, SCAN_LIMITS.evidence);
  const records = tx
    .find(ContextRecords, 'site', site.id)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
    .slice(0, SCAN_LIMITS.evidence);
  return { questions, records };
}

/** The live spaces of the site's site spaces, each once (the first site space naming it). */
export function siteSpacesWithSpace(tx: ReadTx, site: SiteRecord): { ss: SiteSpaceRecord; space: SpaceRecord }[] {
  const out: { ss: SiteSpaceRecord; space: SpaceRecord }[] = [];
  const seen = new Set<string>();
  const all = siteSpacesOfSite(tx, site.id).sort((a, b) => Number(b.default) - Number(a.default) || a.id.localeCompare(b.id));
  for (const ss of all) {
    const space = tx.get(Spaces, ss.space);
    if (!space || space.deletedAt || seen.has(space.id)) continue;
    seen.add(space.id);
    out.push({ ss, space });
  }
  return out;
}

/** The fingerprint of a site's inputs: it changes when a question, a record or a site space's content does. */
export function fingerprintOf(tx: ReadTx, site: SiteRecord): string {
  const { questions, records } = evidenceOf(tx, site);
  const h = createHash('sha256');
  for (const q of [...questions].sort((a, b) => a.id.localeCompare(b.id))) h.update(`q ${q.id} ${q.count} ${q.answered} ${q.lastAskedAt}\n`);
  for (const r of [...records].sort((a, b) => a.id.localeCompare(b.id))) h.update(`r ${r.id} ${r.updatedAt}\n`);
  for (const { ss, space } of siteSpacesWithSpace(tx, site)) h.update(`s ${ss.id} ${ss.path} ${space.id} ${space.revision}\n`);
  return h.digest('hex').slice(0, 32);
}

/** Everything a scan reads of a site. */
export function scanInputs(tx: ReadTx, site: SiteRecord): ScanInputs {
  const { questions, records } = evidenceOf(tx, site);
  const spaces: SpaceRecord[] = [];
  const pages: ScanPage[] = [];
  const trees = new Map<string, { pages: PageNode[]; files: FileEntry[] }>();
  for (const { ss, space } of siteSpacesWithSpace(tx, site)) {
    spaces.push(space);
    const rev = tx.get(Revisions, space.revision);
    if (!rev) continue;
    const section = ss.section ? tx.get(SiteSections, ss.section) : undefined;
    const tree = treeOf(tx, rev);
    trees.set(space.id, { pages: tree, files: rev.files ?? [] });
    const prefix = [section && !section.default ? section.path : '', ss.default ? '' : ss.path].filter(Boolean);
    for (const l of flatten(tree)) {
      if (l.node.type !== 'document') continue;
      pages.push({
        space,
        siteSpace: ss,
        node: l.node,
        path: l.path,
        sitePath: '/' + [...prefix, l.path].filter(Boolean).join('/'),
        markdown: markdownOf(tx, space.id, l.node),
        revisionAt: rev.createdAt,
      });
    }
  }
  return { site, spaces, questions, records, pages, trees, fingerprint: fingerprintOf(tx, site) };
}
