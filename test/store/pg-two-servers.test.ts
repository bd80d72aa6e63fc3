import { afterAll, describe, expect, it } from 'vitest';
import { postgresOrSkip } from '../helpers/postgres.js';
import { pgServers } from '../helpers/pg-servers.js';

// Two `docs serve` processes on one PostgreSQL schema, 32 clients writing through both: creates
// of spaces and collections, renames, moves of spaces in and out of collections, deletes, and
// change requests created, given a page and merged. Midway one server is killed (SIGKILL); its
// clients go on through the other. Then, through the survivor and through a third server started
// afterwards (cold, everything read from PostgreSQL): every acknowledged write is there with a
// value it may have (see `settles`), nothing unacknowledged appears from nowhere, the space lists
// (of the organization, of each collection) and the spaces' change-request counts agree, merged
// change requests are merged with their page. Background jobs (workers) are not exercised here.

const pgUrl = await postgresOrSkip();
const TOKEN = 'gb_api_two_servers';
const CLIENTS = 32;
const LOAD_MS = 6_000;
const KILL_AT_MS = 2_500;
const MAX_OPS = 6_000;
const MAX_COLLECTIONS = 24;
const REQUEST_TIMEOUT_MS = 15_000;
/** How long after a lost request (its server killed) its write may still have been committed. */
const LOST_MARGIN_MS = 2_000;

/** One write of a value (a title, a parent): acknowledged, refused (not applied), or lost (maybe applied). */
interface Write {
  value: string | null;
  start: number;
  end: number;
  outcome: 'acked' | 'lost';
}

interface SpaceRec {
  id: string;
  title: Write[];
  parent: Write[];
  deleted?: 'acked' | 'lost';
  crs: { id: string; page: string; content: 'acked' | 'lost' | 'no'; merged: 'acked' | 'lost' | 'no' | 'conflicts'; lostCreate?: boolean }[];
  /** Change requests whose creation was lost (may exist). */
  lostCrs: number;
}

interface CollectionRec {
  id: string;
  title: Write[];
}

/**
 * May `final` be the value left by `writes` (in the order the store applied them)? Only if one
 * write of that value could have been the last applied: none acknowledged write started after
 * it had been acknowledged (or, lost, after its server could no longer commit it).
 */
function settles(writes: Write[], final: string | null): boolean {
  return writes.some((w) => w.value === final && !writes.some((o) => o !== w && o.outcome === 'acked' && o.start > w.end));
}

describe.skipIf(!pgUrl)('two docs serve processes on one PostgreSQL store', () => {
  const servers = pgServers(pgUrl!, 'two_servers', TOKEN);
  const start = () => servers.start();
  afterAll(() => servers.stop());

  it(`keeps every acknowledged write of ${CLIENTS} clients writing through both, across a SIGKILL of one`, async () => {
    const a = await start();
    const b = await start(); // after the first: the first one bootstrapped the store
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    type Answer = { status: number; body: any } | 'lost';
    const call = async (base: string, method: string, path: string, body?: unknown): Promise<Answer> => {
      try {
        const r = await fetch(base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await r.text();
        return { status: r.status, body: text ? JSON.parse(text) : undefined };
      } catch {
        return 'lost';
      }
    };
    const org = ((await call(a.url, 'GET', '/v1/orgs')) as any).body.items[0].id as string;

    const spaces = new Map<string, SpaceRec>();
    const collections = new Map<string, CollectionRec>();
    const lostSpaceTitles = new Set<string>(); // creations whose answer was lost: may exist
    const lostCollectionTitles = new Set<string>();
    const unexpected: string[] = [];
    const lostOnSurvivor: string[] = [];
    const pool: string[] = []; // live spaces any client may write
    const collPool: string[] = [];
    let ops = 0;
    const lat: Record<string, number[]> = {}; // per kind of request: latencies, for the summary
    let acked = 0;
    let killedAt = Infinity;
    let t0 = Date.now();
    const now = () => Date.now() - t0;
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

    const client = async (n: number) => {
      let server = n % 2 === 0 ? a : b;
      let seq = 0;
      const mine: string[] = [];
      /** One request: its answer, the write's timing, and the switch to the survivor when its server is gone. */
      const send = async (method: string, path: string, body?: unknown) => {
        const startAt = now();
        const answer = await call(server.url, method, path, body);
        const end = now();
        const key = method + ' ' + path.replace(/\/[A-Za-z0-9]{20}/g, '/ID').replace(/\?.*/, '');
        (lat[key] ??= []).push(end - startAt);
        if (answer === 'lost') {
          if (server === b && killedAt !== Infinity) server = a;
          else lostOnSurvivor.push(`${method} ${path}`);
        } else if (answer.status >= 400 && answer.status !== 404 && !(answer.status === 409 && /^nothing to change/.test(answer.body?.error?.message)))
          unexpected.push(`${method} ${path} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        else if (answer.status < 300) acked++;
        return { answer, start: startAt, end: answer === 'lost' ? end + LOST_MARGIN_MS : end };
      };
      const ok = (answer: Answer, status: number): answer is { status: number; body: any } => answer !== 'lost' && answer.status === status;

      while (now() < LOAD_MS && ops < MAX_OPS) {
        ops++;
        const tag = `${n}-${++seq}`;
        const r = Math.random();
        if (r < 0.05 && collections.size < MAX_COLLECTIONS) {
          const title = `C ${tag}`;
          const { answer, start, end } = await send('POST', `/v1/orgs/${org}/collections`, { title });
          if (ok(answer, 201)) {
            collections.set(answer.body.id, { id: answer.body.id, title: [{ value: title, start, end, outcome: 'acked' }] });
            collPool.push(answer.body.id);
          } else if (answer === 'lost') lostCollectionTitles.add(title);
        } else if (r < 0.33 || pool.length < 8) {
          const title = `S ${tag}`;
          const parent = collPool.length && Math.random() < 0.3 ? pick(collPool)! : null;
          const { answer, start, end } = await send('POST', `/v1/orgs/${org}/spaces`, { title, ...(parent ? { parent } : {}) });
          if (ok(answer, 201)) {
            const id = answer.body.id as string;
            spaces.set(id, {
              id,
              title: [{ value: title, start, end, outcome: 'acked' }],
              parent: [{ value: parent, start, end, outcome: 'acked' }],
              crs: [],
              lostCrs: 0,
            });
            pool.push(id);
            mine.push(id);
          } else if (answer === 'lost') lostSpaceTitles.add(title);
        } else if (r < 0.53) {
          const rec = spaces.get(pick(pool)!)!;
          const title = `R ${tag}`;
          const { answer, start, end } = await send('PATCH', `/v1/spaces/${rec.id}`, { title });
          if (ok(answer, 200)) rec.title.push({ value: title, start, end, outcome: 'acked' });
          else if (answer === 'lost') rec.title.push({ value: title, start, end, outcome: 'lost' });
        } else if (r < 0.68) {
          const rec = spaces.get(pick(pool)!)!;
          const parent = collPool.length && Math.random() < 0.6 ? pick(collPool)! : null;
          const { answer, start, end } = await send('POST', `/v1/spaces/${rec.id}/move`, { parent });
          if (ok(answer, 200)) rec.parent.push({ value: parent, start, end, outcome: 'acked' });
          else if (answer === 'lost') rec.parent.push({ value: parent, start, end, outcome: 'lost' });
        } else if (r < 0.73 && collPool.length) {
          const rec = collections.get(pick(collPool)!)!;
          const title = `CR ${tag}`;
          const { answer, start, end } = await send('PATCH', `/v1/collections/${rec.id}`, { title });
          if (ok(answer, 200)) rec.title.push({ value: title, start, end, outcome: 'acked' });
          else if (answer === 'lost') rec.title.push({ value: title, start, end, outcome: 'lost' });
        } else if (r < 0.92) {
          // A change request with a new page, merged.
          const rec = spaces.get(pick(pool)!)!;
          const created = await send('POST', `/v1/spaces/${rec.id}/change-requests`, { subject: `Change ${tag}` });
          if (created.answer === 'lost') rec.lostCrs++;
          if (!ok(created.answer, 201)) continue;
          const cr: SpaceRec['crs'][number] = { id: created.answer.body.id, page: `Page ${tag}`, content: 'no', merged: 'no' };
          rec.crs.push(cr);
          const path = `/v1/spaces/${rec.id}/change-requests/${cr.id}`;
          const content = await send('POST', `${path}/content?compat=false`, {
            changes: [{ operation: 'insert_page', ref: `p${tag}`, title: cr.page, document: { markdown: `Written by client ${n}.` } }],
          });
          cr.content = content.answer === 'lost' ? 'lost' : content.answer.status < 300 ? 'acked' : 'no';
          if (cr.content !== 'acked') continue;
          const merged = await send('POST', `${path}/merge`);
          if (merged.answer === 'lost') cr.merged = 'lost';
          else if (merged.answer.status === 200) cr.merged = merged.answer.body.result === 'merge' ? 'acked' : 'conflicts';
        } else if (mine.length > 1) {
          const id = mine.splice(Math.floor(Math.random() * mine.length), 1)[0]!;
          pool.splice(pool.indexOf(id), 1);
          const { answer } = await send('DELETE', `/v1/spaces/${id}`);
          if (ok(answer, 205)) spaces.get(id)!.deleted = 'acked';
          else if (answer === 'lost') spaces.get(id)!.deleted = 'lost';
        }
      }
    };

    // Warm-up: each server runs every kind of write once (its first change-request content loads
    // the content pipeline), so that the load measures servers at work rather than starting.
    for (const [i, server] of [a, b].entries()) {
      const space = (await call(server.url, 'POST', `/v1/orgs/${org}/spaces`, { title: `Warm ${i}` })) as any;
      const id = space.body.id;
      const cr = ((await call(server.url, 'POST', `/v1/spaces/${id}/change-requests`, { subject: 'Warm-up' })) as any).body;
      const path = `/v1/spaces/${id}/change-requests/${cr.id}`;
      await call(server.url, 'POST', `${path}/content?compat=false`, {
        changes: [{ operation: 'insert_page', ref: 'warm', title: `Warm page ${i}`, document: { markdown: 'Warm.' } }],
      });
      const merged = await call(server.url, 'POST', `${path}/merge`);
      expect(merged !== 'lost' && merged.body.result).toBe('merge');
      const before = -1; // on the load's clock, which starts below: before any of its writes
      spaces.set(id, {
        id,
        title: [{ value: `Warm ${i}`, start: before, end: before, outcome: 'acked' }],
        parent: [{ value: null, start: before, end: before, outcome: 'acked' }],
        crs: [{ id: cr.id, page: `Warm page ${i}`, content: 'acked', merged: 'acked' }],
        lostCrs: 0,
      });
      pool.push(id);
    }
    t0 = Date.now();

    const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    const killer = (async () => {
      while (now() < KILL_AT_MS) await new Promise((r) => setTimeout(r, 20));
      killedAt = now();
      b.child.kill('SIGKILL');
      await b.exited;
    })();
    await Promise.all([load, killer]);
    const loadMs = now();
    const latency = Object.entries(lat).map(([k, v]) => (v.sort((x, y) => x - y), `${k} ${v.length}x p50 ${v[v.length >> 1]} ms`));

    expect(unexpected, 'answers other than 2xx, a 404 (a space deleted meanwhile) or a 409 (a move to where the space is)').toEqual([]);
    expect(lostOnSurvivor, 'requests lost by the server that was not killed').toEqual([]);
    expect(acked).toBeGreaterThan(100);

    // -- Checks, through the survivor and a server started now.
    const c = await start();
    const listAll = async (base: string, path: string) => {
      const items: any[] = [];
      for (let page: string | undefined; ; ) {
        const r = await call(base, 'GET', `${path}?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        if (r === 'lost' || r.status !== 200) throw new Error(`GET ${path}: ${r === 'lost' ? 'lost' : r.status}`);
        items.push(...r.body.items);
        page = r.body.next?.page;
        if (!page) return items;
      }
    };
    const view = async (base: string) => {
      const spaceRows = await listAll(base, `/v1/orgs/${org}/spaces`);
      const collRows = await listAll(base, `/v1/orgs/${org}/collections`);
      const inCollections: Record<string, string[]> = Object.fromEntries(
        await Promise.all(
          collRows.map(async (col) => [col.id as string, (await listAll(base, `/v1/collections/${col.id}/spaces`)).map((s) => s.id as string).sort()]),
        ),
      );
      const spacesById = new Map(spaceRows.map((s) => [s.id as string, s]));
      const collectionsById = new Map(collRows.map((x) => [x.id as string, x]));
      return { spacesById, collectionsById, inCollections };
    };
    const summary = (v: Awaited<ReturnType<typeof view>>) =>
      JSON.stringify([
        [...v.spacesById.values()].map((s) => [s.id, s.title, s.parent ?? null, s.changeRequests, s.changeRequestsOpen]).sort(),
        [...v.collectionsById.values()].map((x) => [x.id, x.title]).sort(),
        v.inCollections,
      ]);

    // The survivor's cache must catch up with what the killed server committed (notifications).
    let survivor = await view(a.url);
    const fresh = await view(c.url);
    const until = Date.now() + 5_000;
    while (summary(survivor) !== summary(fresh) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      survivor = await view(a.url);
    }
    expect(summary(survivor), 'the survivor and a server started after the load see the same store').toBe(summary(fresh));

    const problems: string[] = [];
    let merged = 0;
    const pending: Promise<void>[] = [];
    for (const rec of spaces.values()) {
      const row = fresh.spacesById.get(rec.id);
      if (rec.deleted === 'acked') {
        if (row) problems.push(`space ${rec.id}: deleted (acknowledged) but listed`);
        continue;
      }
      if (!row) {
        if (!rec.deleted) problems.push(`space ${rec.id}: created (acknowledged) but not listed`);
        continue;
      }
      if (!settles(rec.title, row.title)) problems.push(`space ${rec.id}: title ${row.title}, acknowledged ${JSON.stringify(rec.title)}`);
      if (!settles(rec.parent, row.parent ?? null)) problems.push(`space ${rec.id}: parent ${row.parent}, acknowledged ${JSON.stringify(rec.parent)}`);
      const crsAcked = rec.crs.length;
      if (row.changeRequests < crsAcked || row.changeRequests > crsAcked + rec.lostCrs)
        problems.push(`space ${rec.id}: ${row.changeRequests} change requests, ${crsAcked} acknowledged (+${rec.lostCrs} lost)`);
      const mergedAcked = rec.crs.filter((x) => x.merged === 'acked').length;
      const maybeMerged = rec.crs.filter((x) => x.merged === 'lost').length;
      const open = row.changeRequestsOpen;
      if (open > row.changeRequests - mergedAcked || open < row.changeRequests - mergedAcked - maybeMerged)
        problems.push(`space ${rec.id}: ${open} open change requests of ${row.changeRequests}, ${mergedAcked} merged (+${maybeMerged} lost)`);
      if (!rec.crs.length) continue;
      pending.push(
        (async () => {
          const pagesAnswer = await call(c.url, 'GET', `/v1/spaces/${rec.id}/content/pages`);
          const titles = new Set<string>();
          const walk = (ps: any[]) => ps.forEach((p) => (titles.add(p.title), walk(p.pages ?? [])));
          if (pagesAnswer !== 'lost') walk(pagesAnswer.body.pages ?? []);
          for (const cr of rec.crs) {
            const got = await call(c.url, 'GET', `/v1/spaces/${rec.id}/change-requests/${cr.id}`);
            const status = got === 'lost' ? 'lost' : got.body.status;
            if (cr.merged === 'acked') {
              merged++;
              if (status !== 'merged') problems.push(`change request ${cr.id} of ${rec.id}: merge acknowledged, status ${status}`);
              if (!titles.has(cr.page)) problems.push(`change request ${cr.id} of ${rec.id}: merged, but the space has no page ${cr.page}`);
            } else if (cr.merged !== 'lost' && status !== 'open' && status !== 'draft')
              problems.push(`change request ${cr.id} of ${rec.id}: not merged, status ${status}`);
          }
        })(),
      );
    }
    await Promise.all(pending);
    // Nothing from nowhere: every listed space or collection was created by a client (its answer possibly lost).
    for (const row of fresh.spacesById.values())
      if (!spaces.has(row.id) && !lostSpaceTitles.has(row.title)) problems.push(`space ${row.id} (${row.title}) was never created`);
    for (const rec of collections.values()) {
      const row = fresh.collectionsById.get(rec.id);
      if (!row) problems.push(`collection ${rec.id}: created (acknowledged) but not listed`);
      else if (!settles(rec.title, row.title)) problems.push(`collection ${rec.id}: title ${row.title}, acknowledged ${JSON.stringify(rec.title)}`);
    }
    for (const row of fresh.collectionsById.values())
      if (!collections.has(row.id) && !lostCollectionTitles.has(row.title)) problems.push(`collection ${row.id} (${row.title}) was never created`);
    // Counts: the organization's spaces are those created minus those deleted, and each is at the root or in one listed collection.
    const createdAcked = spaces.size;
    const deletedAcked = [...spaces.values()].filter((s) => s.deleted === 'acked').length;
    const lostDeletesApplied = [...spaces.values()].filter((s) => s.deleted === 'lost' && !fresh.spacesById.has(s.id)).length;
    const lostCreatesApplied = [...fresh.spacesById.values()].filter((s) => !spaces.has(s.id)).length;
    expect(fresh.spacesById.size).toBe(createdAcked + lostCreatesApplied - deletedAcked - lostDeletesApplied);
    const byParent = new Map<string, string[]>();
    for (const s of fresh.spacesById.values()) if (s.parent) byParent.set(s.parent, [...(byParent.get(s.parent) ?? []), s.id]);
    for (const [col, ids] of Object.entries(fresh.inCollections)) {
      if (JSON.stringify(ids) !== JSON.stringify((byParent.get(col) ?? []).sort()))
        problems.push(`collection ${col} lists ${ids.length} spaces, ${byParent.get(col)?.length ?? 0} spaces name it as parent`);
    }
    for (const p of byParent.keys()) if (!fresh.collectionsById.has(p)) problems.push(`spaces in collection ${p}, which is not listed`);
    expect(problems.slice(0, 20)).toEqual([]);
    console.log(
      `two servers: ${ops} operations (${acked} acknowledged writes, ${Math.round((acked / loadMs) * 1000)}/s) by ${CLIENTS} clients in ${loadMs} ms, ` +
        `one server killed at ${killedAt} ms; ${createdAcked} spaces created (${lostSpaceTitles.size} lost answers), ${deletedAcked} deleted, ` +
        `${collections.size} collections, ${merged} change requests merged; ${fresh.spacesById.size} spaces listed\n  ${latency.join('\n  ')}`,
    );
  }, 60_000);
});
