import { table } from '../store/port.js';
import type {
  CustomFontRecord,
  CustomHostnameRecord,
  InsightBatchRecord,
  InsightRollupRecord,
  ShareLinkRecord,
  SiteAgentSettingsRecord,
  SiteChannelRecord,
  SiteExternalLinkRecord,
  SiteMcpServerRecord,
  SiteRedirectRecord,
  SiteRecord,
  SiteSectionGroupRecord,
  SiteSectionRecord,
  SiteSpaceRecord,
} from './model.js';

// The tables this area owns (see Table in src/store/port.ts): another area reads these rows by
// importing a handle from here, an import the layering test checks. Docs sites, their structure and share links.
// The second type lists the fields `find` may query, as src/store/tables.ts indexes them.

export const Sites = table<SiteRecord, 'organization' | 'proxy'>('sites');
export const SiteSections = table<SiteSectionRecord, 'site'>('siteSections');
export const SiteSectionGroups = table<SiteSectionGroupRecord, 'site'>('siteSectionGroups');
export const SiteSpaces = table<SiteSpaceRecord, 'site' | 'space'>('siteSpaces');
export const SiteShareLinks = table<ShareLinkRecord, 'site' | 'key'>('siteShareLinks');
export const SiteRedirects = table<SiteRedirectRecord, 'site'>('siteRedirects');
export const CustomFonts = table<CustomFontRecord, 'organization'>('customFonts');
export const CustomHostnames = table<CustomHostnameRecord, 'organization' | 'site'>('customHostnames');
export const SiteMcpServers = table<SiteMcpServerRecord, 'site'>('siteMcpServers');
// A site's insights events, in immutable batches (src/sites/insights.ts): the site's own segments.
export const SiteInsightBatches = table<InsightBatchRecord, 'site'>('siteInsightBatches');
// What those batches count, ahead of aggregations (src/sites/insight-rollups.ts): a shard per rollup.
export const SiteInsightRollups = table<InsightRollupRecord, 'site'>('siteInsightRollups');
// A site's agent channels, navigation external links and agent settings (docs/manual/site-agents.md).
export const SiteChannels = table<SiteChannelRecord, 'site'>('siteChannels');
export const SiteExternalLinks = table<SiteExternalLinkRecord, 'site'>('siteExternalLinks');
export const SiteAgentSettings = table<SiteAgentSettingsRecord, 'site'>('siteAgentSettings');
