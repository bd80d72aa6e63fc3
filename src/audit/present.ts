import { apiUrl, type Context } from '../kernel/context.js';
import type { ResponseBody } from '../contract/types.js';
import { eventUuid, type AuditEventRecord } from './model.js';

type AuditEvent = ResponseBody<'listOrganizationAuditEvents', '200'>['items'][number];

export function presentAuditEvent(ctx: Context, e: AuditEventRecord): AuditEvent {
  const id = eventUuid(e.id);
  return {
    object: 'audit-event',
    id,
    occurredAt: e.occurredAt,
    action: e.action,
    actor: { type: e.actor.type, id: e.actor.id, ...(e.actor.label ? { label: e.actor.label } : {}) },
    source: e.source,
    target: { type: e.target.type, id: e.target.id },
    urls: { location: apiUrl(ctx, `/orgs/${e.organization}/audit-events/${id}`) },
  };
}

/** The event with what the operation wrote (AuditEventDetails): `payload` is this server's own, schema version 1. */
export function presentAuditEventDetails(ctx: Context, e: AuditEventRecord): ResponseBody<'getOrganizationAuditEvent', '200'> {
  return {
    ...presentAuditEvent(ctx, e),
    executionId: e.operation,
    correlationId: e.correlation,
    schemaVersion: 1,
    payload: {
      operation: e.operation,
      path: e.path,
      rows: e.rows,
      ...(e.more ? { moreRows: e.more } : {}),
      ...(e.actor.user ? { user: e.actor.user } : {}),
    },
  };
}
