import { operationSpec } from '../contract/spec.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import { servedOperations } from '../kernel/served.js';
import { actionOf, labelOf } from './actions.js';
import { presentAuditEvent, presentAuditEventDetails } from './present.js';
import { getAuditEvent, listAuditEvents, requireAuditReader } from './service.js';

// An organization's audit log (docs/manual/audit.md): the events `invoke` records with every
// write (src/audit/record.ts), read by the organization's admins.

let actionList: { id: string; label: string }[] | undefined;

/** One entry per action: the write operations served (every method but GET), by their action name. */
function actions(): { id: string; label: string }[] {
  if (actionList) return actionList;
  const byId = new Map<string, string>();
  for (const id of servedOperations()) {
    const spec = operationSpec(id);
    if (spec.method === 'GET') continue;
    const action = actionOf(id);
    if (!byId.has(action)) byId.set(action, labelOf(spec.summary, id));
  }
  return (actionList = [...byId].map(([id, label]) => ({ id, label })).sort((a, b) => a.id.localeCompare(b.id)));
}

export const listOrganizationAuditEvents = defineOperation('listOrganizationAuditEvents', ({ ctx, caller, path, query }) =>
  ctx.store.read((tx) => {
    requireAuditReader(tx, path.organizationId, caller);
    const known = new Set(actions().map((a) => a.id));
    const events = listAuditEvents(tx, path.organizationId, query, ctx.clock.now().getTime(), known);
    return { status: 200, body: paginate(events, { limit: query.limit ?? 20, page: query.page }, (e) => presentAuditEvent(ctx, e)) };
  }),
);

export const getOrganizationAuditEvent = defineOperation('getOrganizationAuditEvent', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    requireAuditReader(tx, path.organizationId, caller);
    return { status: 200, body: presentAuditEventDetails(ctx, getAuditEvent(tx, path.organizationId, path.auditEventId, ctx.clock.now().getTime())) };
  }),
);

export const listOrganizationAuditEventActions = defineOperation('listOrganizationAuditEventActions', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    requireAuditReader(tx, path.organizationId, caller);
    return { status: 200, body: { items: actions().map((a) => ({ object: 'audit-event-action' as const, ...a })) } };
  }),
);
