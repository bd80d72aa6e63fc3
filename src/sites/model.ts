import type { FontFormat } from '../kernel/font-format.js';
// Docs sites: a site publishes spaces, as a flat list of site spaces or as sections (each with
// its site spaces), optionally inside section groups that nest. Every row lives in the
// organization's shard (`org/<id>`), like the spaces it points at, so one write changes a site
// and its structure atomically and an organization's sites list cheaply.

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export type SiteType = (typeof SITE_TYPES)[number];
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface SiteRecord {
  id: string;
  organization: string;
  type: SiteType;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  /** The site's path segment under its organization in published URLs; unique in the organization. */
  basename: string;
  /** Host and path the site is served at through a proxy (`company.com/docs`). */
  proxy?: string;
  adaptiveContent: { enabled: boolean };
  agentsContext: 'excluded' | 'included';
  /** The site's customization (SiteCustomizationSettings); absent means the defaults. */
  customization?: Record<string, unknown>;
  /** The visitor schema of adaptive content (SiteAdaptiveJSONSchema), with when it was set. */
  adaptiveSchema?: { jsonSchema: Record<string, unknown>; updatedAt: string };
  /**
   * Visitor authentication (SitePublishingAuth): where visitors without a valid token are sent to
   * sign in, and the key a backend signs their tokens with (HS256). docs/manual/site-delivery.md#publishing-auth
   */
  visitorAuth?: VisitorAuthSettings;
  /** The keys of a site pushed from a repository (src/sites/site-map.ts); absent until the first push. */
  siteMap?: SiteMap;
  /** The space holding the site's style guide (docs/manual/styleguides.md), once made. */
  styleguide?: string;
  createdAt: string;
  updatedAt: string;
}

/** Key of gitbook-docs.yaml → what it is on the site (a site space's `space`: the space it shows), and the folder of a space's content. */
export interface SiteMap {
  keys: Record<string, { type: 'space' | 'section' | 'section-group'; id: string; space?: string; directory?: string | null }>;
  text?: string;
}

export interface SiteSectionRecord {
  id: string;
  organization: string;
  site: string;
  title: string;
  path: string;
  description?: string;
  icon?: string;
  condition?: string;
  /** The section group it sits in, or null at the site's root. */
  group: string | null;
  /** Order among the sections and groups of the same container. */
  position: number;
  default: boolean;
  createdAt: string;
}

export interface SiteSectionGroupRecord {
  id: string;
  organization: string;
  site: string;
  title: string;
  icon?: string;
  /** The group it nests in, or null at the site's root. */
  group: string | null;
  position: number;
  createdAt: string;
}

export interface SiteSpaceRecord {
  id: string;
  organization: string;
  site: string;
  space: string;
  /** The section it belongs to, or null when the site is a flat list of site spaces. */
  section: string | null;
  path: string;
  condition?: string;
  hidden: boolean;
  default: boolean;
  position: number;
  /** Overrides of the site's customization for this site space (null fields reset). */
  customization?: Record<string, unknown>;
  createdAt: string;
}

export interface ShareLinkRecord {
  id: string;
  organization: string;
  site: string;
  name: string;
  active: boolean;
  /** The secret a visitor gives as `shareKey`. */
  key: string;
  createdAt: string;
}

/** Where a site redirect leads (the contract's SiteRedirectDestination). docs/manual/sites.md#redirects */
export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string }
  | { kind: 'external'; url: string };

export interface SiteRedirectRecord {
  id: string;
  organization: string;
  site: string;
  /** Normalised source path under the site's address (`/old/page`, `/old/*`). */
  source: string;
  destination: RedirectDestination;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  createdAt: string;
  updatedAt?: string;
}

export const SITE_TITLE = { min: 2, max: 128 };
export const SECTION_TITLE = { min: 2, max: 128 };
export const GROUP_TITLE = { min: 1, max: 100 };
export const PATH_MAX = 100;

/** An organization's custom font (CustomizationFontDefinition). docs/manual/site-delivery.md#custom-fonts */
export interface CustomFontRecord {
  id: string;
  organization: string;
  family: string;
  faces: { weight: number; sha: string; format: FontFormat; size: number; storageKey: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface VisitorAuthSettings {
  backend: 'custom';
  /** The sign-in backend: visitors of a visitor-auth site without a valid token are redirected there. */
  fallbackURL?: string;
  /** The shared secret that signs visitor tokens (HS256); regenerating it invalidates every token signed with the old one. */
  privateKey: string;
  keyCreatedAt: string;
}

/** Where a custom hostname's DNS check left it (the contract's CustomHostnameStatus values this server uses). */
export type HostnameStatus = 'live' | 'dns_no_cname' | 'dns_wrong_cname';

/** A custom hostname a site answers on (docs/manual/site-delivery.md#custom-hostnames). */
export interface CustomHostnameRecord {
  /** The name itself, lower case (`docs.example.com`). */
  id: string;
  organization: string;
  site: string;
  status: HostnameStatus;
  /** The addresses the name resolved to at the last check. */
  addresses: string[];
  checkedAt: string;
  createdAt: string;
}

/**
 * A configured MCP endpoint of a site (SiteMcpServer): the site's `/mcp` (or `/mcp/<slug>`), the
 * tools and spaces it serves, and the headers a client must send. docs/manual/site-delivery.md#site-mcp-servers
 */
export interface SiteMcpServerRecord {
  id: string;
  organization: string;
  site: string;
  name: string;
  /** The URL as given (its path names the endpoint, its query the tools and spaces). */
  url: string;
  /** '' for the site's `/mcp`, else the slug of `/mcp/<slug>`. */
  endpoint: string;
  /** The tools served; undefined: all of them. */
  tools?: string[];
  /** The spaces served (ids); undefined: every space of the site. */
  spaces?: string[];
  headers: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** One immutable row: a batch of events, column by column (src/sites/insights.ts; docs/manual/insights.md#storage). */
/**
 * What a site's batches count (src/sites/insight-rollups.ts): events per (hour, type), per
 * (hour, type, value) of each field, and the distinct visitors and sessions per (hour|day, type).
 * Keys pack a bucket and a type (bucket * 64 + type), hours and days counted from the epoch.
 */
export interface InsightRollupRecord {
  /** `<site>:open` (the rollup new batches are added to) or `<site>:<random>`. */
  id: string;
  site: string;
  organization: string;
  /** 0: open; 1: sealed; n+1: merged from FANOUT of level n. */
  level: number;
  /** The batches counted (each batch by exactly one rollup). */
  batches: string[];
  events: number;
  /** The first and last event times (ms). */
  t0: number;
  t1: number;
  dict: string[];
  /** [key, events]* */
  total: number[];
  /** Per field: [key, value (dict index, -1 none), events]*; a field absent: no event has a value. */
  cells: Partial<Record<string, number[]>>;
  /** Distinct visitors / sessions per hour and per day: [key, n, ...n dict indexes]* */
  vh: number[];
  vd: number[];
  sh: number[];
  sd: number[];
}

export interface InsightBatchRecord {
  /** `<site>:<time base36>-<random>`: the site says which shard holds it. */
  id: string;
  site: string;
  organization: string;
  createdAt: string;
  /** Event times, ms since `t0`. */
  t0: number;
  dt: number[];
  /** Event types, as indexes into EVENT_TYPES. */
  type: number[];
  /** The batch's strings; a column holds indexes into it, -1 for no value. */
  dict: string[];
  /** Only the columns some event of the batch has. */
  cols: Partial<Record<string, number[]>>;
}

/**
 * A GitBook Agent channel of a site (docs/manual/site-agents.md#channels): the external tool the
 * site's agent works in (Slack, Linear, GitHub, Discord), the places there it may act in (the
 * setup's allow patterns) and its role: `support` answers from the site, `collaborator` may also
 * open change requests.
 */
export const CHANNEL_TYPES = ['builtin:slack', 'builtin:linear', 'builtin:github', 'builtin:discord'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export interface SiteChannelRecord {
  id: string;
  organization: string;
  site: string;
  type: ChannelType;
  /** The setup's allow list, under the key the type names (allowedChannels, allowedTeams, allowedRepositories). */
  setupSettings: Record<string, string[]>;
  role: 'support' | 'collaborator';
  createdAt: string;
  updatedAt: string;
}

/** An external link in a site's navigation (docs/manual/site-agents.md#external-links): at the root or in a section group. */
export interface SiteExternalLinkRecord {
  id: string;
  organization: string;
  site: string;
  title: string;
  localizedTitle?: Record<string, string>;
  description?: string;
  localizedDescription?: Record<string, string>;
  icon?: string;
  url: string;
  /** The section group it sits in, or null at the site's root. */
  group: string | null;
  draft: boolean;
  condition?: string;
  /** Order among the links of the same container (they follow its sections and groups). */
  position: number;
  createdAt: string;
}

/** A site's agent settings (SiteAgentSettingsInput), one row per site (its id the site's). */
export interface SiteAgentSettingsRecord {
  id: string;
  organization: string;
  site: string;
  scans: { topics: 'auto' | 'never' };
  findings: { changeRequests: 'always' | 'auto-fixable' | 'never' };
  editing: { customInstructions: { object: 'document'; data: Record<string, unknown>; nodes: unknown[] } };
  updatedAt: string;
  updatedBy: string;
}
