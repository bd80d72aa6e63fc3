import type { DocumentJson } from '../documents/markdown.js';

// Stored rows of the scan side of the site context area (docs/manual/site-findings.md): a scan of
// a site, the findings it keeps up to date (content gaps, broken links, outdated pages) and the
// topics its evidence falls into. Every row lives in the site's context shard (`context/<site>`):
// ids are `<site>:<...>`. Findings and topics have ids made from a key (what they are about), so a
// scan that finds the same thing again updates the row it made before instead of adding one.

export type SiteScanStatus = 'pending' | 'running' | 'done' | 'failed';
export type SiteFindingType = 'content-outdated' | 'content-incorrect' | 'content-gap' | 'broken-link' | 'outbound-link-error' | 'other';
export type SiteFindingSeverity = 'low' | 'medium' | 'high';
export type SiteFindingStatus = 'candidate' | 'open' | 'done' | 'canceled';

/** One scan of a site. Id `<site>:<uuid>`. */
export interface SiteScanRecord {
  id: string;
  organization: string;
  site: string;
  status: SiteScanStatus;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** Findings the scan found (new or found again), by severity. */
  findings: { low: number; medium: number; high: number };
  failureMessage?: string;
  /** The fingerprint of the inputs it scanned (scan-inputs.ts): the worker scans again when it changes. */
  fingerprint?: string;
}

/** A page a finding concerns. */
export interface FindingPageRef {
  space: string;
  page: string;
}

/** What the fix of a broken link needs (findings-fix.ts): where the link is and what replaces it. */
export interface BrokenLinkFix {
  space: string;
  page: string;
  /** The link's URL as written in the page. */
  url: string;
  /** The page the link should lead to instead (same space), when one is found. */
  replacement?: { page: string; path: string };
}

/** A finding. Id `<site>:f<hash of its key>`. */
export interface SiteFindingRecord {
  id: string;
  /** What it is about: `gap:<first evidence>`, `link:<space>:<page>:<url>`, `outdated:<space>:<page>`. */
  key: string;
  organization: string;
  site: string;
  /** The last scan that found it. */
  scan: string;
  /** Its topic's id, or null. */
  topic: string | null;
  type: SiteFindingType;
  severity: SiteFindingSeverity;
  status: SiteFindingStatus;
  /** Who set the status: a scan (it may change it again) or a person (kept by every later scan). */
  statusBy: 'scan' | 'person';
  title: string;
  /** The contract's JSONDocument, made from markdown when the scan writes the row. */
  description: DocumentJson;
  autoFixable: boolean;
  brokenLinkAction?: { source: string; destination: { kind: 'path'; spaceId: string; path: string } };
  brokenLink?: BrokenLinkFix;
  /** Site question ids (AskQuestionRecord.id), records (ContextRecordRow.id), pages. */
  questions: string[];
  records: string[];
  pages: FindingPageRef[];
  /** Connectors of its records (for stats and the `source` filter: with `connections`). */
  connectors: string[];
  connections: string[];
  /** Change requests opened for it (triggerChangeRequestsForSiteFinding). */
  changeRequests: { space: string; changeRequest: string }[];
  createdAt: string;
  updatedAt: string;
  /** Deleted by deleteSiteTopicFindings: hidden, and not made again until it has more evidence than then. */
  deletedAt?: string;
  deletedEvidence?: number;
}

/** A topic: a group of questions and records about the same thing. Id `<site>:t<hash of its first evidence>`. */
export interface SiteTopicRecord {
  id: string;
  key: string;
  organization: string;
  site: string;
  label: string;
  /** Markdown (presented as a JSONDocument made at scan time). */
  summary: DocumentJson;
  icon: string;
  usageSettings: { changeRequests: boolean };
  questions: string[];
  records: string[];
  pages: FindingPageRef[];
  createdAt: string;
  updatedAt: string;
}

/**
 * What the scans of a site remember between runs. Id `<site>:state`. `pages`: per page
 * (`<space>/<page>`), the hash of its body and the time it is known to be unchanged since (the
 * creation time of the first revision a scan saw it in): the rule for outdated pages.
 */
export interface SiteScanStateRecord {
  id: string;
  organization: string;
  site: string;
  fingerprint: string;
  scannedAt: string;
  pages: Record<string, { hash: string; since: string }>;
}

export const scanStateId = (site: string) => `${site}:state`;

/** Bounds of a scan. */
export const SCAN_LIMITS = {
  /** Scans kept per site (the oldest dropped beyond). */
  scans: 50,
  /** Questions and records a scan reads (the most recent). */
  evidence: 2000,
  /** Evidence items checked against the pages per topic (the most recent). */
  checkedPerTopic: 20,
  /** Pages linked to a content gap (the nearest). */
  gapPages: 5,
};
