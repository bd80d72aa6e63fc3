import type { Caller, Context } from '../kernel/context.js';
import { notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { EventRecord, InstallationRecord, IntegrationRecord, LogLine } from './model.js';
import { administeredIntegration } from './service.js';
import { IntegrationEvents } from './tables.js';

// Events of an integration: stored per integration (its own shard), newest first. Event types
// emitted here: `installation_setup` (install; configuration or status change) and
// `installation_deleted` (uninstall). Reading them is for the owner's admins (the developers).

export const log = (ctx: Context, level: LogLine['level'], message: string): LogLine => ({ message, timestamp: ctx.clock.now().toISOString(), level });

/** Whether development mode forwards events of this installation's organization. */
export function forwards(i: IntegrationRecord, organization: string | undefined): boolean {
  return !!i.dev && (i.dev.all || organization === i.organization);
}

export function recordEvent(
  tx: WriteTx,
  ctx: Context,
  i: IntegrationRecord,
  inst: InstallationRecord | undefined,
  payload: Record<string, unknown>,
  task?: { due?: Date },
): EventRecord {
  const due = task?.due;
  // A task queued by the integration's owner (no installation) concerns the owner's organization.
  const organization = inst?.organization ?? (task ? i.organization : undefined);
  const seq = tx.find(IntegrationEvents, 'integration', i.id).reduce((m, e) => Math.max(m, e.seq), 0) + 1;
  const id = newId();
  const deliver = forwards(i, organization);
  const trace: LogLine[] = [log(ctx, 'info', `event ${payload.type} received`)];
  if (deliver) trace.push(log(ctx, 'debug', `queued for delivery to the development tunnel ${i.dev!.tunnelUrl}${due ? ` at ${due.toISOString()}` : ''}`));
  else if (i.dev)
    trace.push(log(ctx, 'info', `not delivered: development mode forwards only events of the owning organization ${i.organization} (all: false)`));
  else trace.push(log(ctx, 'info', 'not delivered: development mode is off (this server does not run integration scripts)'));
  return tx.put(IntegrationEvents, {
    id,
    integration: i.id,
    ...(inst ? { installation: inst.id } : {}),
    ...(organization ? { organization } : {}),
    ...(task ? { task: true as const } : {}),
    seq,
    createdAt: ctx.clock.now().toISOString(),
    payload: { eventId: id, ...(task && inst ? { installationId: inst.id } : {}), ...payload },
    status: 'success',
    delivery: deliver ? 'pending' : 'done',
    ...(deliver && due ? { due: due.toISOString() } : {}),
    trace,
  });
}

export function eventsOf(tx: ReadTx, caller: Caller, name: string): EventRecord[] {
  const i = administeredIntegration(tx, name, caller, 'reading the events of an integration');
  return tx
    .find(IntegrationEvents, 'integration', i.id)
    .filter((e) => !e.task)
    .sort((a, b) => b.seq - a.seq);
}

export function eventOf(tx: ReadTx, caller: Caller, name: string, id: string): EventRecord {
  const i = administeredIntegration(tx, name, caller, 'reading the events of an integration');
  const e = tx.get(IntegrationEvents, id);
  if (!e || e.integration !== i.id || e.task) throw notFound(`event ${id} of integration ${name} not found`);
  return e;
}
