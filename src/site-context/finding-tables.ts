import { table } from '../store/port.js';
import type { SiteFindingRecord, SiteScanRecord, SiteScanStateRecord, SiteTopicRecord } from './finding-model.js';

// The scan side's tables (docs/manual/site-findings.md), all in the site's context shard. The
// second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const SiteScans = table<SiteScanRecord, 'site'>('siteScans');
export const SiteFindings = table<SiteFindingRecord, 'site'>('siteFindings');
export const SiteTopics = table<SiteTopicRecord, 'site'>('siteTopics');
export const SiteScanStates = table<SiteScanStateRecord, never>('siteScanStates');
