// Stored records of integrations. An integration is global, addressed by its `name` (unique
// across the store), and lives in its owning organization's shard: publishing or deleting it is
// that organization's business. Installations live in the shard of the organization they are
// installed in (its admins manage them). Events live in the integration's own shard
// (`integration/<id>`), so event traffic never rewrites an organization's shard; keyed by id, not
// name, so a name published again after a delete starts with no old events.

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';
export type InstallationStatus = 'active' | 'pending' | 'paused';
export type Selection = 'all' | 'selected';

export interface DevMode {
  tunnelUrl: string;
  /** Forward events of every organization's installations, not only the owner's. */
  all: boolean;
  /**
   * Set by the instance owner through the in-process CLI: the tunnel may reach loopback and
   * private addresses (src/integrations/service.ts). Never returned by any operation.
   */
  privateAllowed?: true;
}

export interface IntegrationRecord {
  id: string;
  name: string;
  organization: string;
  version: number;
  runtime: 'v1' | 'v2';
  title: string;
  description: string;
  summary?: string;
  /** Base64 of the icon, as published; served by URL only. */
  icon?: string;
  previewImages: string[];
  visibility: IntegrationVisibility;
  target: IntegrationTarget;
  scopes: string[];
  categories: string[];
  blocks: any[];
  contentSources: any[];
  externalLinks: { url: string; label: string }[];
  configurations?: Record<string, any>;
  script: string;
  /** Never returned by any operation (see present.ts, which does not read it). */
  secrets: Record<string, string>;
  contentSecurityPolicy?: string | Record<string, string>;
  dev?: DevMode;
  createdAt: string;
  updatedAt: string;
  publishedBy: string;
}

export interface InstallationRecord {
  id: string;
  integration: string; // integration id
  organization: string;
  status: InstallationStatus;
  space_selection: Selection;
  site_selection: Selection;
  configuration: Record<string, unknown>;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
  installedBy: string;
  /**
   * Installations on single spaces and sites, by space or site id (docs/manual/integrations.md#installations-on-spaces-and-sites):
   * with selection `selected`, the only ones it is installed on; with `all`, the ones given their own configuration.
   */
  spaceInstalls?: Record<string, ContentInstall>;
  siteInstalls?: Record<string, ContentInstall>;
}

export interface ContentInstall {
  configuration: Record<string, unknown>;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface LogLine {
  message: string;
  timestamp: string;
  level: LogLevel;
}

/**
 * `delivery` is ours: `pending` until the delivery worker has dealt with it, then `done`. The
 * contract's `status` (success | failed) is the outcome; an event whose delivery is still pending
 * shows `success` (nothing has failed) and its trace says it is queued.
 */
export interface EventRecord {
  id: string;
  integration: string; // integration id
  installation?: string;
  /** Organization whose installation the event concerns: dev mode without `all` forwards only the owner's. */
  organization?: string;
  seq: number;
  createdAt: string;
  payload: Record<string, unknown>;
  status: 'success' | 'failed';
  delivery: 'pending' | 'done';
  /**
   * `task`: a task queued by queueIntegrationTask, delivered like an event but not listed among
   * them (the contract's Event has no task type). `due`: its time to run (`schedule`).
   */
  task?: true;
  due?: string;
  trace: LogLine[];
}

/** Categories of 0.146.0 that 0.202.0 dropped: refused when publishing, left out of answers (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract). */
export const RETIRED_CATEGORIES: readonly string[] = ['gitsync'];
