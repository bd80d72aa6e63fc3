// Stored rows of the site context area (docs/manual/site-context.md): the sources a site's
// documentation agent learns from (connections), what they brought in (records), and what its
// scans concluded from them, from the questions visitors ask and from the site itself.
// Connections and records are written by the connections side (connections*.ts, records*.ts);
// scans, findings and topics by the scan side (scan*.ts, findings*.ts, topics*.ts).

/** Where a connection's records come from: `builtin:<name>` or `integration:<name>` (the spec's ContextConnector). */
export type ContextConnector = string;

export type ContextConnectionStatus = 'pending' | 'syncing' | 'succeeded' | 'failed';
export type ContextConnectionFailureReason = 'authentication' | 'misconfigured' | 'rate_limited' | 'upstream_unavailable' | 'unknown';

/** The spec's ContextUsageSettings, as stored. */
export interface ContextUsageSettingsRecord {
  changeRequests: boolean;
  search: boolean;
  sync?: boolean;
  searchBoost: string;
}

/** A source of context for one site. Row id = the connection's id. */
export interface ContextConnectionRecord {
  id: string;
  organization: string;
  site: string;
  connector: ContextConnector;
  /** The connector's own settings (the spec's `setupSettings`), as given. */
  setupSettings?: Record<string, unknown>;
  label?: string;
  filter?: string;
  status: ContextConnectionStatus;
  syncedAt?: string;
  /** When the running sync began (status `syncing`): a second sync waits for it, or for it to be stale. */
  syncStartedAt?: string;
  failureMessage?: string;
  failureReason?: ContextConnectionFailureReason;
  usageSettings: ContextUsageSettingsRecord;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

/** One ingested item (a ticket or a document) of a connection. Ids are `<site>:<uuid>`. */
export interface ContextRecordRow {
  id: string;
  organization: string;
  site: string;
  connection: string;
  connector: ContextConnector;
  /** The source's own id for it (ContextRecordInput.id), unique per connection. */
  localId: string;
  /** `<connection>\u0000<localId>`, indexed: an upsert finds the record it replaces. */
  key: string;
  type: 'ticket' | 'document';
  title: string;
  description?: string;
  /** Markdown, as ingested. */
  body: string;
  url?: string;
  /** When the source says it was created (ContextRecordInput.createdAt). */
  sourceCreatedAt?: string;
  metadata?: Record<string, string | number>;
  /** Its place in the order the site's records were first written (records written in the same millisecond keep their order). */
  seq?: number;
  createdAt: string;
  updatedAt: string;
}

export const contextRecordKey = (connection: string, localId: string) => `${connection}\u0000${localId}`;
