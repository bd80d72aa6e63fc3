import { table } from '../store/port.js';
import type { AuditEventRecord, AuditHostRecord, AuditRecentRecord } from './model.js';

// Audit events: immutable rows in append-only segments of the organization's own `audit/<org>`
// group (src/store/tables.ts), so recording one writes a small new segment, never the
// organization's shard, and listing loads only that organization's events.
export const AuditEvents = table<AuditEventRecord, 'organization'>('auditEvents');
// The newest events of each place, in the shard their write committed (src/audit/record.ts), and
// the organization's list of those places.
export const AuditRecent = table<AuditRecentRecord, 'host'>('auditRecent');
export const AuditHosts = table<AuditHostRecord, 'organization'>('auditHosts');
// On a store whose backend keeps logs (PostgreSQL), the events themselves: one row each, appended
// in the write's commit, neither ring nor segments (src/audit/record.ts `keep`).
export const AuditLog = table<AuditEventRecord, 'organization'>('auditLog');
