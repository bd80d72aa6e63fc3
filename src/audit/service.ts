import type { Caller } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx } from '../store/port.js';
import { eventUuid, type AuditEventRecord } from './model.js';
import { newestFirst } from './record.js';
import { retention } from './retention.js';
import { AuditEvents, AuditHosts, AuditLog, AuditRecent } from './tables.js';

export interface AuditFilters {
  from?: string;
  to?: string;
  action?: string;
  actor?: string;
  target?: string;
}

/** Reading an organization's log is for its admins (docs/manual/audit.md#who-may-read-it). */
export function requireAuditReader(tx: ReadTx, organizationId: string, caller: Caller) {
  const { org, member } = membershipOf(tx, organizationId, caller);
  requireOrgRole(member, 'admin', 'reading the audit log');
  return org;
}

/** The events within retention, newest first: the newest maxEvents, none older than maxAge. */
function retained(tx: ReadTx, organization: string, now: number): AuditEventRecord[] {
  const { maxEvents, maxAgeMs } = retention();
  const cutoff = new Date(now - maxAgeMs).toISOString();
  // The organization's segments, and the recent ring of each place its writes were kept in.
  const rings = tx
    .find(AuditHosts, 'organization', organization)
    .flatMap((h) => tx.find(AuditRecent, 'host', h.host).filter((e) => e.organization === organization));
  // On PostgreSQL, the log kept row by row (src/audit/record.ts), beside what was recorded before it.
  return [...tx.find(AuditEvents, 'organization', organization), ...tx.find(AuditLog, 'organization', organization), ...rings]
    .filter((e) => e.occurredAt >= cutoff)
    .sort(newestFirst)
    .slice(0, maxEvents);
}

const time = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (!Number.isFinite(t)) throw invalid(`${name}: not a date-time (e.g. 2026-01-31T00:00:00Z)`);
  return t;
};

export function listAuditEvents(tx: ReadTx, organization: string, f: AuditFilters, now: number, actions: ReadonlySet<string>): AuditEventRecord[] {
  const from = time('from', f.from);
  const to = time('to', f.to);
  if (from !== undefined && to !== undefined && from > to) throw invalid('from: must not be after to');
  if (f.action !== undefined && !actions.has(f.action))
    throw invalid(`action: ${JSON.stringify(f.action)} is no action of this server (GET /orgs/{organizationId}/audit-event-actions lists them)`);
  return retained(tx, organization, now).filter((e) => {
    const at = Date.parse(e.occurredAt);
    if (from !== undefined && at < from) return false;
    if (to !== undefined && at > to) return false;
    if (f.action !== undefined && e.action !== f.action) return false;
    if (f.actor !== undefined && e.actor.id !== f.actor) return false;
    if (f.target !== undefined && e.target.id !== f.target) return false;
    return true;
  });
}

export function getAuditEvent(tx: ReadTx, organization: string, uuid: string, now: number): AuditEventRecord {
  // Among the retained events only: one past retention is gone to readers before its row is dropped.
  const e = retained(tx, organization, now).find((x) => eventUuid(x.id) === uuid);
  if (!e) throw notFound(`audit event ${uuid} not found in organization ${organization}`);
  return e;
}
