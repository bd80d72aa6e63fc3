// An organization's audit events (docs/manual/audit.md): one per committed write an operation
// made through `invoke`, written in that write's transaction (src/audit/record.ts).

export type AuditActorType = 'user' | 'integration' | 'installation' | 'system' | 'support';
export type AuditSource = 'ui' | 'api' | 'integration' | 'webhook' | 'workflow' | 'script' | 'support';

export interface AuditEventRecord {
  /** `<organization>:<uuid>`: the shard is found from the id (src/store/tables.ts); the API shows the uuid. */
  id: string;
  organization: string;
  occurredAt: string;
  /** The action name (src/audit/actions.ts, from the operation id). */
  action: string;
  operation: string;
  actor: { type: AuditActorType; id: string; label?: string; user?: string };
  source: AuditSource;
  /** What the operation is about: its most specific path parameter, else the first row it created. */
  target: { type: string; id: string };
  /** Every row the transaction put or deleted (at most MAX_ROWS; `more` counts the rest). */
  rows: { table: string; id: string; change: 'put' | 'delete' }[];
  more?: number;
  /** The operation's path parameters. */
  path: Record<string, string>;
  /** Shared by the events of one call whose handler committed several transactions. */
  correlation: string;
}

/**
 * An event still in its recent ring (src/audit/record.ts): kept in `host`, a shard its own write
 * committed, so recording it wrote no file of its own. Id `<host>|<uuid>`.
 */
export interface AuditRecentRecord extends AuditEventRecord {
  host: string;
}

/** A shard holding an organization's recent ring: id `<organization>|<host>`, in the organization's shard. */
export interface AuditHostRecord {
  id: string;
  organization: string;
  host: string;
}

/** The event's uuid: the last 36 characters of either kind of row id. */
export const eventUuid = (id: string) => id.slice(-36);
export const recentRowId = (host: string, uuid: string) => `${host}|${uuid}`;
export const hostRowId = (organization: string, host: string) => `${organization}|${host}`;
export const eventRowId = (organization: string, uuid: string) => `${organization}:${uuid}`;
