import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { SiteRecord } from '../sites/model.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import { type ContextConnectionRecord, contextRecordKey, type ContextRecordRow } from './model.js';
import { SiteTopics } from './finding-tables.js';
import { ContextConnections, ContextRecords } from './tables.js';

// A site's context records (docs/manual/site-context.md#connections-and-records): what its
// connections brought in, kept in the site's own shard (context/<site>). Written two ways, each in
// one write: pushed through upsertSiteContextRecords into the site's builtin:api connection (same
// `id` for the connection: the record is replaced), or replaced as a whole by a website sync.
// Read by the scan side as evidence (recordsOfSite).

/** At most this many records in one upsert, this many per connection, and this many bytes of body (UTF-8) per record. */
export const MAX_UPSERT = 1000;
export const MAX_PER_CONNECTION = 10_000;
export const MAX_BODY_BYTES = 100_000;
const MAX_LOCAL_ID = 256;
const MAX_METADATA_KEYS = 50;
const MAX_METADATA_VALUE = 1024;

/** Every record of a site, in the order they were first written: one shard read (context/<site>), nothing else. */
export function recordsOfSite(tx: ReadTx, siteId: string): ContextRecordRow[] {
  return tx
    .find(ContextRecords, 'site', siteId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.seq ?? 0) - (b.seq ?? 0) || a.id.localeCompare(b.id));
}

/** How many records each connection of a site has (the ContextConnection's `records`). */
export function recordCounts(tx: ReadTx, siteId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of tx.find(ContextRecords, 'site', siteId)) counts.set(r.connection, (counts.get(r.connection) ?? 0) + 1);
  return counts;
}

/** Removes every record of one connection (in the caller's write). */
export function deleteRecordsOf(tx: WriteTx, siteId: string, connectionId: string): number {
  const mine = tx.find(ContextRecords, 'site', siteId).filter((r) => r.connection === connectionId);
  for (const r of mine) tx.delete(ContextRecords, r.id);
  return mine.length;
}

// A record's id in the API is the part after `<site>:` of its row id (src/store/tables.ts finds the
// shard from the row id), so a record is always looked up within the site its path names.
const publicId = (r: ContextRecordRow) => r.id.slice(r.site.length + 1);

export function recordOf(tx: ReadTx, site: SiteRecord, id: string): ContextRecordRow {
  const r = id.includes(':') ? undefined : tx.get(ContextRecords, `${site.id}:${id}`);
  if (!r || r.site !== site.id) throw notFound(`context record ${id} not found in site ${site.id}`);
  return r;
}

/** What one record is made of, pushed or crawled. */
export interface RecordInput {
  id: string;
  type: 'ticket' | 'document';
  title: string;
  description?: string;
  body: string;
  url?: string;
  createdAt?: string;
  metadata?: Record<string, string | number>;
}

/** The checks the contract cannot make (sizes, the URL's scheme), naming the field: `body[3].url: ...`. */
function checkInput(r: RecordInput, at: string): void {
  if (!r.id || r.id.length > MAX_LOCAL_ID) throw invalid(`${at}.id: must be 1 to ${MAX_LOCAL_ID} characters`);
  const bytes = Buffer.byteLength(r.body, 'utf8');
  if (bytes > MAX_BODY_BYTES) throw invalid(`${at}.body: ${bytes} bytes, more than the ${MAX_BODY_BYTES} a record may hold`);
  if (r.url !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(r.url);
    } catch {}
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
      throw invalid(`${at}.url: only http and https URLs (got ${JSON.stringify(r.url.slice(0, 100))})`);
    if (u.username || u.password) throw invalid(`${at}.url: a URL with a user name or password is refused`);
  }
  const meta = Object.entries(r.metadata ?? {});
  if (meta.length > MAX_METADATA_KEYS) throw invalid(`${at}.metadata: at most ${MAX_METADATA_KEYS} entries`);
  for (const [k, v] of meta)
    if (k.length > 100 || (typeof v === 'string' && v.length > MAX_METADATA_VALUE))
      throw invalid(`${at}.metadata.${k.slice(0, 100)}: keys of at most 100 characters, values of at most ${MAX_METADATA_VALUE}`);
}

/**
 * Writes `inputs` as records of `conn`, each one replacing the record of the same `id` in the
 * connection (its row id and createdAt kept). With `replaceAll`, the connection's other records
 * are removed (a website sync: the site as it is now). Checks every input before writing any.
 */
export function writeRecords(
  tx: WriteTx,
  ctx: Context,
  conn: ContextConnectionRecord,
  inputs: RecordInput[],
  opts: { replaceAll?: boolean; field?: string } = {},
) {
  const field = opts.field ?? 'body';
  const seen = new Set<string>();
  inputs.forEach((r, i) => {
    checkInput(r, `${field}[${i}]`);
    if (seen.has(r.id)) throw invalid(`${field}[${i}].id: ${JSON.stringify(r.id)} is given twice`);
    seen.add(r.id);
  });
  const ofSite = tx.find(ContextRecords, 'site', conn.site);
  const existing = ofSite.filter((r) => r.connection === conn.id);
  let seq = ofSite.reduce((m, r) => Math.max(m, (r.seq ?? 0) + 1), 0);
  const byKey = new Map(existing.map((r) => [r.key, r]));
  const added = inputs.filter((r) => !byKey.has(contextRecordKey(conn.id, r.id))).length;
  const kept = opts.replaceAll ? inputs.length : existing.length + added;
  if (kept > MAX_PER_CONNECTION)
    throw invalid(`${field}: the connection would hold ${kept} records, more than the ${MAX_PER_CONNECTION} a connection may hold`);
  const now = ctx.clock.now().toISOString();
  for (const r of inputs) {
    const key = contextRecordKey(conn.id, r.id);
    const before = byKey.get(key);
    byKey.delete(key);
    tx.put(ContextRecords, {
      id: before?.id ?? `${conn.site}:${newId()}`,
      organization: conn.organization,
      site: conn.site,
      connection: conn.id,
      connector: conn.connector,
      localId: r.id,
      key,
      type: r.type,
      title: r.title,
      ...(r.description ? { description: r.description } : {}),
      body: r.body,
      ...(r.url ? { url: r.url } : {}),
      ...(r.createdAt ? { sourceCreatedAt: r.createdAt } : {}),
      ...(r.metadata && Object.keys(r.metadata).length ? { metadata: r.metadata } : {}),
      seq: before?.seq ?? seq++,
      createdAt: before?.createdAt ?? now,
      updatedAt: now,
    });
  }
  if (opts.replaceAll) for (const gone of byKey.values()) tx.delete(ContextRecords, gone.id);
}

/** The site's builtin:api connection, where pushed records go (400 when it has none). */
export function apiConnectionOf(tx: ReadTx, site: SiteRecord): ContextConnectionRecord {
  const c = tx.find(ContextConnections, 'site', site.id).find((x) => x.connector === 'builtin:api');
  if (!c) throw invalid(`body: site ${site.id} has no builtin:api connection to push records to; create one first (connector builtin:api)`);
  return c;
}

/** Pushes records into the site's builtin:api connection (upsertSiteContextRecords). */
export function upsertRecords(tx: WriteTx, ctx: Context, site: SiteRecord, inputs: RecordInput[]): void {
  if (inputs.length > MAX_UPSERT) throw invalid(`body: ${inputs.length} records, more than the ${MAX_UPSERT} one call may push`);
  writeRecords(tx, ctx, apiConnectionOf(tx, site), inputs);
}

/**
 * The topics of a site's records, by record row id: a record's topics are the ones its site's last
 * scan put it in (src/site-context/scan.ts keeps them on the topic rows, so a scan never rewrites
 * the records' shard).
 */
export function recordTopics(tx: ReadTx, siteId: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const t of tx.find(SiteTopics, 'site', siteId))
    for (const id of t.records) {
      const list = out.get(id);
      if (list) list.push(t.id);
      else out.set(id, [t.id]);
    }
  return out;
}

/** The contract's ContextRecord (the body is stored, not answered: the spec's record has none); `topics` from recordTopics. */
export function presentRecord(ctx: Context, r: ContextRecordRow, topics: readonly string[] = []): Schema<'ContextRecord'> {
  return {
    object: 'context-record',
    id: publicId(r),
    title: r.title,
    ...(r.description ? { description: r.description } : {}),
    type: r.type,
    createdAt: r.sourceCreatedAt ?? r.createdAt,
    processedAt: r.updatedAt,
    connection: r.connection,
    connector: r.connector as Schema<'ContextRecord'>['connector'],
    topics: [...topics],
    urls: {
      location: apiUrl(ctx, `/orgs/${r.organization}/sites/${r.site}/context-records/${publicId(r)}`),
      ...(r.url ? { source: r.url } : {}),
    },
  };
}
