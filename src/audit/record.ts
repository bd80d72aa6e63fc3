import { randomUUID } from 'node:crypto';
import { Collections } from '../collections/tables.js';
import { contextBase, type Caller, type Context } from '../kernel/context.js';
import type { WriteHook } from '../kernel/write-scope.js';
import { IntegrationInstallations } from '../integrations/tables.js';
import { Sites } from '../sites/tables.js';
import { Spaces } from '../spaces/tables.js';
import type { ReadTx, Row, Store, Table, WriteTx } from '../store/port.js';
import { TABLES } from '../store/tables.js';
import { Users } from '../users/tables.js';
import { actionOf } from './actions.js';
import { eventRowId, eventUuid, hostRowId, recentRowId, type AuditEventRecord, type AuditRecentRecord } from './model.js';
import { retention } from './retention.js';
import { AuditEvents, AuditHosts, AuditLog, AuditRecent } from './tables.js';

// Recording an operation's writes (docs/manual/audit.md#recorded-in-the-same-commit). `invoke`
// runs a write operation's handler with `auditHook` as its write scope; each write the handler
// queues is run through `wrap`: the write function sees a transaction that notes what it puts
// and deletes, and once it returns, the event is put in the same transaction. So the event is
// committed with the write or not at all (a function that throws, or a commit that fails, takes
// both), and it costs no commit of its own.

/** Rows listed in an event's payload; the count of the others is kept. */
export const MAX_ROWS = 50;

export interface AuditCall {
  operationId: string;
  method: string;
  path: Record<string, string>;
  caller: Caller;
}

export interface AuditScope extends WriteHook {
  /** The call has been answered: a write queued after it (background work it started) is not its own. */
  close(): void;
}

export function auditHook(ctx: Context, call: AuditCall): AuditScope {
  let open = true;
  const logs = logsOf(ctx);
  // A store that keeps logs row by row (PostgreSQL, a data directory): each event is a row
  // appended in its write's commit, so neither the write's shard (a ring) nor the segments carry it.
  const appended = ctx.store.logTables?.has(AuditLog) ?? false;
  const correlation = randomUUID();
  return {
    close: () => void (open = false),
    wrap<R>(fn: (tx: WriteTx) => R) {
      if (!open) return fn;
      // Fixed when the write is queued: the function may run again (a shard loaded on demand).
      const uuid = randomUUID();
      const occurredAt = ctx.clock.now().toISOString();
      return (tx: WriteTx): R => {
        const before = organizationOfPath(tx, call.path);
        const rows: AuditEventRecord['rows'] = [];
        const owners: Row[] = [];
        // Where the event is kept: the shard of the first row put (a delete's shard may be emptied).
        let first: { table: string; row: Row } | undefined;
        const emptied = new Set<string>();
        const noted: WriteTx = {
          get: (t, id) => tx.get(t, id),
          find: (t, f, v) => tx.find(t, f, v),
          all: (t) => tx.all(t),
          put: <T extends Row>(t: Table<T>, row: T) => {
            rows.push({ table: t, id: row.id, change: 'put' });
            if (owners.length < 4) owners.push(row);
            first ??= { table: t, row };
            return tx.put(t, row);
          },
          delete: (t, id) => {
            const old = tx.get(t, id);
            const gone = tx.delete(t, id);
            if (gone) {
              rows.push({ table: t, id, change: 'delete' });
              if (old && owners.length < 4) owners.push(old);
              const h = old && hostOf(t, old);
              if (h) emptied.add(h);
            }
            return gone;
          },
        };
        const result = fn(noted);
        if (!rows.length) return result;
        // A shard the write deleted from may be left with nothing else: the rings kept there move
        // to the segments, so that a deleted thing's file goes with it (never kept alive by its log).
        for (const h of emptied) {
          if (appended) ringToLog(tx, h);
          else flushRing(tx, h, Date.parse(occurredAt), logs);
        }
        const organization = before ?? organizationOfRows(tx, owners);
        if (!organization) return result; // a user's own settings: no organization's log
        const event: AuditEventRecord = {
          id: eventRowId(organization, uuid),
          organization,
          occurredAt,
          action: actionOf(call.operationId),
          operation: call.operationId,
          actor: actorOf(tx, call.caller),
          source: call.caller.scope ? 'integration' : 'api',
          target: targetOf(call, rows),
          rows: rows.slice(0, MAX_ROWS),
          ...(rows.length > MAX_ROWS ? { more: rows.length - MAX_ROWS } : {}),
          path: call.path,
          correlation,
        };
        if (appended) {
          // A ring left in the write's shard by a store from before its log (written every write
          // with the shard while there): moved into the log once, by the place's first write.
          const host = first && hostOf(first.table, first.row);
          if (host) ringToLog(tx, host);
          tx.put(AuditLog, event);
          trimDue(ctx.store, event, Date.parse(occurredAt), logs);
        } else keep(tx, event, first && hostOf(first.table, first.row), Date.parse(occurredAt), logs);
        return result;
      };
    },
  };
}

/** The organization a path names, directly or through the space, site, collection or installation it names. */
function organizationOfPath(tx: ReadTx, path: Record<string, string>): string | undefined {
  if (path.organizationId) return path.organizationId;
  if (path.spaceId) return tx.get(Spaces, path.spaceId)?.organization;
  if (path.siteId) return tx.get(Sites, path.siteId)?.organization;
  if (path.collectionId) return tx.get(Collections, path.collectionId)?.organization;
  if (path.installationId) return tx.get(IntegrationInstallations, path.installationId)?.organization;
  return undefined;
}

/** Else the organization of the first rows written that say (a new organization's member row, a space's row). */
function organizationOfRows(tx: ReadTx, rows: Row[]): string | undefined {
  for (const r of rows as Row[] & { organization?: unknown; space?: unknown }[]) {
    const o = (r as { organization?: unknown }).organization;
    if (typeof o === 'string') return o;
    const s = (r as { space?: unknown }).space;
    if (typeof s === 'string') {
      const org = tx.get(Spaces, s)?.organization;
      if (org) return org;
    }
  }
  return undefined;
}

function actorOf(tx: ReadTx, caller: Caller): AuditEventRecord['actor'] {
  const label = tx.get(Users, caller.userId)?.displayName;
  const inst = caller.scope?.installation;
  if (inst) return { type: 'installation', id: inst.id, label: inst.integrationName, user: caller.userId };
  return { type: 'user', id: caller.userId, ...(label ? { label } : {}) };
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
const singular = (table: string) => kebab(table.replace(/ies$/, 'y').replace(/s$/, ''));

/**
 * What the event is about: for a POST, the row it created whose table the operation id names
 * first (the space of createSpace, not its first revision; the comment of postCommentInSpace),
 * else the first row it created; for the other methods, the path's most specific parameter
 * (the comment of updateCommentInSpace).
 */
function targetOf(call: AuditCall, rows: AuditEventRecord['rows']): AuditEventRecord['target'] {
  const params = Object.entries(call.path);
  const last = params.at(-1);
  if (call.method === 'POST' || !last) {
    const made = rows.filter((r) => r.change === 'put' && !params.some(([, v]) => v === r.id));
    const name = call.operationId.toLowerCase();
    const at = (r: { table: string }) => {
      const i = name.indexOf(singular(r.table).replace(/-/g, ''));
      return i < 0 ? Infinity : i;
    };
    const best = made.reduce<(typeof made)[number] | undefined>((b, r) => (!b || at(r) < at(b) ? r : b), undefined);
    if (best) return { type: singular(best.table), id: best.id };
  }
  if (last) return { type: kebab(last[0].replace(/(Id|Name|Slug)$/, '')), id: last[1] };
  return { type: singular(rows[0]!.table), id: rows[0]!.id };
}

/** Events a place's recent ring holds before they are moved to the organization's segments. */
export const RING = 16;

/** The shard a row is kept in, when it is one shard (not a group of immutable segments). */
function hostOf(tableName: string, row: Row): string | undefined {
  const spec = TABLES.find((t) => t.name === tableName);
  if (!spec || spec.immutable) return undefined;
  try {
    const key = spec.shard(row);
    return typeof key === 'string' && key && !key.includes('|') ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `event` where it costs its commit no file: in the recent ring of `host`, a shard the
 * write itself rewrites. When the organization's ring there is full, the ring and the event go to
 * the organization's segments (`audit/<org>`) in this transaction, and retention runs: one write
 * in RING pays for the others. A write with no such shard (immutable rows only) goes to the
 * segments. The first event of a place also writes the organization's list of places (once).
 */
function keep(tx: WriteTx, event: AuditEventRecord, host: string | undefined, now: number, logs?: Logs): void {
  if (!host) {
    tx.put(AuditEvents, event);
    prune(tx, event.organization, now, logs, [event]);
    return;
  }
  const uuid = eventUuid(event.id);
  const hostId = hostRowId(event.organization, host);
  if (!tx.get(AuditHosts, hostId)) tx.put(AuditHosts, { id: hostId, organization: event.organization, host });
  // The ring's events past the age bound go now (a ring holds RING events at most, whatever their age).
  const cutoff = new Date(now - retention().maxAgeMs).toISOString();
  const ring: AuditRecentRecord[] = [];
  for (const e of tx.find(AuditRecent, 'host', host)) {
    if (e.organization !== event.organization) continue;
    if (e.occurredAt < cutoff) tx.delete(AuditRecent, e.id);
    else ring.push(e);
  }
  if (ring.length < RING) {
    tx.put(AuditRecent, { ...event, id: recentRowId(host, uuid), host });
    return;
  }
  for (const e of ring) {
    tx.delete(AuditRecent, e.id);
    const { host: _host, ...moved } = e;
    tx.put(AuditEvents, { ...moved, id: eventRowId(e.organization, eventUuid(e.id)) });
  }
  tx.put(AuditEvents, event);
  prune(tx, event.organization, now, logs, [...ring, event]);
}

/**
 * Before shards are emptied outside `invoke` (a space purged for good: src/space-purge.ts), the
 * rings the organization keeps in shards whose key starts with `prefix` move to its segments.
 */
export function releaseAuditRings(tx: WriteTx, organization: string, prefix: string, now: number): void {
  for (const h of tx.find(AuditHosts, 'organization', organization)) if (h.host === prefix || h.host.startsWith(`${prefix}/`)) flushRing(tx, h.host, now);
}

/** Moves the ring events kept in shard `host` to their organizations' segments (see auditHook). */
function flushRing(tx: WriteTx, host: string, now: number, logs?: Logs): void {
  const orgs = new Map<string, AuditEventRecord[]>();
  for (const e of tx.find(AuditRecent, 'host', host)) {
    tx.delete(AuditRecent, e.id);
    const { host: _host, ...moved } = e;
    tx.put(AuditEvents, { ...moved, id: eventRowId(e.organization, eventUuid(e.id)) });
    orgs.set(e.organization, [...(orgs.get(e.organization) ?? []), e]);
  }
  for (const [o, added] of orgs) {
    tx.delete(AuditHosts, hostRowId(o, host));
    prune(tx, o, now, logs, added);
  }
}

/**
 * Moves the ring events kept in shard `host` (written before the store kept logs row by row)
 * into their organizations' logs, as rows of the ids they have in segments: listed as before,
 * and trimmed with the log from then on. A place without a ring: one index lookup, nothing written.
 */
function ringToLog(tx: WriteTx, host: string): void {
  const ring = tx.find(AuditRecent, 'host', host);
  if (!ring.length) return;
  const orgs = new Set<string>();
  for (const e of ring) {
    tx.delete(AuditRecent, e.id);
    const { host: _host, ...moved } = e;
    tx.put(AuditLog, { ...moved, id: eventRowId(e.organization, eventUuid(e.id)) });
    orgs.add(e.organization);
  }
  for (const o of orgs) tx.delete(AuditHosts, hostRowId(o, host));
}

/**
 * What this process knows of an organization's log since it last read it whole: how many events
 * it holds at most and the oldest one's time. Retention reads the whole log (every segment) only
 * when these say a bound may be crossed, or after RESCAN moves: reading it at every move cost a
 * durable write under load about a quarter of its rate (docs/manual/performance.md#the-audit-log).
 * Per context (a process may serve several stores, tests do).
 */
interface LogMemo {
  /** Events in the log at most: counted at the last reading, plus every event moved there since. */
  count: number;
  /** The oldest event's time at most (ISO; '' for none known). */
  oldest: string;
  /** Moves since the last reading. */
  moves: number;
  /** A log kept row by row: its trim is under way (trimDue). */
  trimming?: boolean;
}
type Logs = Map<string, LogMemo>;
const memos = new WeakMap<Context, Logs>();

/**
 * The log is read whole at least every RESCAN moves, whatever the memo says: another process
 * writing the same store (two servers on PostgreSQL) adds events this one does not count, and a
 * transaction run again or not committed may leave the memo behind the rows.
 */
export const RESCAN = 256;

function logsOf(ctx: Context): Logs {
  const base = contextBase(ctx);
  let m = memos.get(base);
  if (!m) memos.set(base, (m = new Map()));
  return m;
}

/** Retention's bounds, and the ones a batch waits for: 10% over the count, or the age. */
function bounds(now: number) {
  const { maxEvents, maxAgeMs } = retention();
  return { maxEvents, maxAgeMs, over: maxEvents + Math.ceil(maxEvents / 10), stale: new Date(now - maxAgeMs - maxAgeMs / 10).toISOString() };
}

/** Counts `added` into the memo as `moves` moves; whether a batch may be due (the log is to be looked at). */
function noted(memo: LogMemo, added: readonly AuditEventRecord[], moves: number, { over, stale }: { over: number; stale: string }): boolean {
  memo.count += added.length;
  memo.moves += moves;
  for (const e of added) if (!memo.oldest || e.occurredAt < memo.oldest) memo.oldest = e.occurredAt;
  return memo.moves >= RESCAN || memo.count > over || (memo.oldest !== '' && memo.oldest < stale);
}

/**
 * Retention (src/audit/retention.ts): drops the events past the bounds, in batches. Run by every
 * move of events to the log (`added`); it reads the whole log only when the memo (LogMemo) says
 * a batch may be due, and its reading compares ISO times as strings (they all come from
 * toISOString), no parsing and no sort, unless something is to go.
 */
function prune(tx: WriteTx, organization: string, now: number, logs: Logs | undefined, added: readonly AuditEventRecord[]): void {
  const b = bounds(now);
  const { maxEvents, maxAgeMs, over, stale } = b;
  const memo = logs?.get(organization);
  if (memo && !noted(memo, added, 1, b)) return;
  // With a log kept row by row, the events of before it (segments) are in the log too.
  const logged = tx.find(AuditLog, 'organization', organization);
  const all = [...tx.find(AuditEvents, 'organization', organization), ...logged];
  // A run that reached a part of the log not loaded yet runs again once it is: what it read is
  // no count to remember (the log on PostgreSQL is loaded by the first write that reads it).
  if (tx.settled?.() === false) return;
  const remember = (kept: readonly AuditEventRecord[]) => {
    let oldest = '';
    for (const e of kept) if (!oldest || e.occurredAt < oldest) oldest = e.occurredAt;
    logs?.set(organization, { count: kept.length, oldest, moves: 0 });
  };
  if (all.length <= over && !all.some((e) => e.occurredAt < stale)) return remember(all);
  const cutoff = new Date(now - maxAgeMs).toISOString();
  const kept = all
    .filter((e) => e.occurredAt >= cutoff)
    .sort(newestFirst)
    .slice(0, maxEvents);
  const keep = new Set(kept.map((e) => e.id));
  const inLog = new Set(logged);
  for (const e of all) if (!keep.has(e.id)) tx.delete(inLog.has(e) ? AuditLog : AuditEvents, e.id);
  remember(kept);
}

/**
 * Retention of a log kept row by row (a store with `logTables`: PostgreSQL, a data directory). The same memo says
 * when a batch may be due (each event counts as 1/RING of a move, so the log is looked at in full
 * at least every RESCAN x RING events, as the segments are); then the store removes the rows past
 * the bounds itself (Store.trimLog: one statement apart from any write, by occurredAt then id, the
 * order reads use), and answers how many are left: this process never reads the log to prune it.
 * The first event of an organization in this process trims at once (nothing is known of its log).
 * A trim that fails (PostgreSQL unreachable) is tried again by the next event.
 */
function trimDue(store: Store, event: AuditEventRecord, now: number, logs: Logs): void {
  const b = bounds(now);
  const { maxEvents, maxAgeMs } = b;
  const organization = event.organization;
  let memo = logs.get(organization);
  const first = !memo;
  if (memo) {
    const due = noted(memo, [event], 1 / RING, b);
    if (memo.trimming || !due) return;
  } else logs.set(organization, (memo = { count: 1, oldest: event.occurredAt, moves: 0 }));
  memo.trimming = true;
  const counted = memo.count;
  // The first trim of an organization in this process moves the segments of before the log into it first.
  (first ? segmentsToLog(store, organization) : Promise.resolve())
    .then(() => store.trimLog!(AuditLog, 'organization', organization, maxEvents, new Date(now - maxAgeMs).toISOString()))
    .then(
      ({ count, oldest }) => {
        // What is left, and the events this process recorded since the trim began, and the one
        // that began it (committed after the trim's snapshot, as a rule).
        const m = logs.get(organization)!;
        logs.set(organization, { count: count + 1 + Math.max(0, m.count - counted), oldest: oldest || m.oldest, moves: 0 });
      },
      () => {
        const m = logs.get(organization);
        if (m) m.trimming = false;
      },
    );
}

/**
 * The segments of an organization written before its store kept the log row by row (a data
 * directory of an earlier docs, PostgreSQL before layout 3), moved into the log in a write of
 * their own (same ids, so reads list them as before): retention then trims them with the log,
 * where they were left untrimmed. Nothing there (every store since): it reads the group's index
 * and writes nothing. Failing (a full disk), they stay where they are, read beside the log.
 */
function segmentsToLog(store: Store, organization: string): Promise<unknown> {
  return store
    .write((tx) => {
      for (const e of tx.find(AuditEvents, 'organization', organization)) {
        tx.delete(AuditEvents, e.id);
        tx.put(AuditLog, e);
      }
    })
    .catch(() => {});
}

/** Newest first; ties by uuid (the same whether the event is in a ring or in the segments). */
export const newestFirst = (a: AuditEventRecord, b: AuditEventRecord) =>
  b.occurredAt.localeCompare(a.occurredAt) || eventUuid(b.id).localeCompare(eventUuid(a.id));
