import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditHook } from '../../src/audit/record.js';
import { RING } from '../../src/audit/record.js';
import { AuditEvents, AuditHosts, AuditRecent } from '../../src/audit/tables.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { hookedStore } from '../../src/kernel/write-scope.js';
import { Spaces } from '../../src/spaces/tables.js';
import { docs } from '../helpers/cli.js';
import { recorder, runBoth } from '../helpers/parity.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { addPerson, newOrg, outsider } from '../organizations/people.js';

// The organization's audit log (docs/manual/audit.md): every write made through invoke records
// an event in its own transaction; admins list and read them; retention bounds them.

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.stop());
afterEach(() => {
  delete process.env.DOCS_AUDIT_MAX_EVENTS;
  delete process.env.DOCS_AUDIT_MAX_AGE_DAYS;
});

/** Every stored event of `org`: its segments and the recent ring of each place (src/audit/record.ts). */
const rowsOf = (org: string, t: TestServer = s) =>
  t.ctx.store.read((tx) => [
    ...tx.find(AuditEvents, 'organization', org),
    ...tx.find(AuditHosts, 'organization', org).flatMap((h) => tx.find(AuditRecent, 'host', h.host)),
  ]);
const segmentsOf = (org: string) => s.ctx.store.read((tx) => tx.find(AuditEvents, 'organization', org));
const list = async (org: string, q = '') => {
  const r = await s.api('GET', `/v1/orgs/${org}/audit-events${q}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
};

describe('recording', () => {
  it('records each write with its actor, action, target and time, newest first; reads record nothing', async () => {
    const org = await newOrg(s);
    const me = (await s.api('GET', '/v1/user')).body;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Guides' } })).body;
    await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'Handbook' } });
    const comment = (await s.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: 'Hi' } } })).body;
    await s.api('GET', `/v1/spaces/${space.id}`);
    await s.api('GET', `/v1/orgs/${org}/spaces`);
    const body = await list(org);
    expect(body.items.map((e: any) => e.action)).toEqual(['space.comment.created', 'space.updated', 'space.created', 'organization.created']);
    expect(body.count).toBe(4);
    const [c, u, created] = body.items;
    expect(c.target).toEqual({ type: 'comment', id: comment.id });
    expect(u.target).toEqual({ type: 'space', id: space.id });
    expect(created.target).toEqual({ type: 'space', id: space.id });
    expect(created.actor).toEqual({ type: 'user', id: me.id, label: me.displayName });
    expect(created.source).toBe('api');
    expect(created.urls.location).toBe(`${s.url}/v1/orgs/${org}/audit-events/${created.id}`);
    expect(Date.parse(created.occurredAt)).toBeLessThanOrEqual(Date.parse(c.occurredAt));

    const one = await s.api('GET', `/v1/orgs/${org}/audit-events/${u.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ ...u, executionId: 'updateSpaceById', schemaVersion: 1 });
    expect(one.body.payload.path).toEqual({ spaceId: space.id });
    expect(one.body.payload.rows).toContainEqual({ table: 'spaces', id: space.id, change: 'put' });
  });

  it('a refused write records nothing; a write function that throws takes its event with it', async () => {
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Guides' } })).body;
    const before = (await rowsOf(org)).length;
    expect((await s.api('PUT', `/v1/spaces/${space.id}/comments/nope`, { body: { body: { markdown: 'x' } } })).status).toBe(404);
    expect((await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'x'.repeat(51) } })).status).toBe(400);
    // The write is made, then refused within the same transaction: neither the row nor the event.
    const scope = auditHook(s.ctx, { operationId: 'updateSpaceById', method: 'PATCH', path: { spaceId: space.id }, caller: { userId: 'u' } });
    const store = hookedStore(s.ctx.store, scope);
    await expect(
      store.write((tx) => {
        tx.put(Spaces, { ...tx.get(Spaces, space.id)!, title: 'Changed' });
        throw new Error('refused after the put');
      }),
    ).rejects.toThrow('refused after the put');
    expect((await rowsOf(org)).length).toBe(before);
    expect((await s.api('GET', `/v1/spaces/${space.id}`)).body.title).toBe('Guides');
    // The same write, committed: its event with it, in the one commit.
    await store.write((tx) => void tx.put(Spaces, { ...tx.get(Spaces, space.id)!, title: 'Changed' }));
    expect((await rowsOf(org)).length).toBe(before + 1);
    // Once the call is answered, writes it left behind are not its own.
    scope.close();
    await store.write((tx) => void tx.put(Spaces, { ...tx.get(Spaces, space.id)!, title: 'Later' }));
    expect((await rowsOf(org)).length).toBe(before + 1);
  });
});

describe('filters and pages', () => {
  it('filters by action, actor, target and time, pages with next.page', async () => {
    const org = await newOrg(s);
    const admin = await addPerson(s, org, 'admin');
    const mine = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Mine' } })).body;
    const theirs = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Theirs' }, token: admin.token })).body;
    await s.api('PATCH', `/v1/spaces/${theirs.id}`, { body: { title: 'Theirs 2' } });
    const created = await list(org, '?action=space.created');
    expect(created.items.map((e: any) => e.target.id)).toEqual([theirs.id, mine.id]);
    expect((await list(org, `?actor=${admin.id}`)).items.map((e: any) => e.action)).toEqual(['space.created']);
    expect((await list(org, `?target=${theirs.id}`)).items.map((e: any) => e.action)).toEqual(['space.updated', 'space.created']);
    expect((await list(org, '?from=2999-01-01T00:00:00Z')).items).toEqual([]);
    expect((await list(org, '?to=2000-01-01T00:00:00Z')).items).toEqual([]);
    const all = await list(org);
    const p1 = await list(org, '?limit=2');
    expect(p1.items).toEqual(all.items.slice(0, 2));
    const p2 = await list(org, `?limit=2&page=${p1.next.page}`);
    expect(p2.items).toEqual(all.items.slice(2, 4));
  });

  it('malformed filters are a 400 naming the filter', async () => {
    const org = await newOrg(s);
    const cases: [string, RegExp][] = [
      ['?from=yesterday', /from/],
      ['?to=2026-13-45', /to/],
      ['?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', /from: must not be after to/],
      ['?action=space.exploded', /action: "space.exploded" is no action/],
      ['?limit=101', /limit/],
      ['?limit=0', /limit/],
      ['?page=garbage!', /page/],
    ];
    for (const [q, msg] of cases) {
      const r = await s.api('GET', `/v1/orgs/${org}/audit-events${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toMatch(msg);
    }
  });
});

describe('who may read it', () => {
  it('admins only: 403 for every other role, 404 for outsiders and unknown ids', async () => {
    const org = await newOrg(s);
    const event = (await list(org)).items[0];
    for (const role of ['create', 'review', 'edit', 'comment', 'read']) {
      const p = await addPerson(s, org, role);
      for (const path of [`/audit-events`, `/audit-events/${event.id}`, `/audit-event-actions`]) {
        const r = await s.api('GET', `/v1/orgs/${org}${path}`, { token: p.token });
        expect(r.status, `${role} ${path}`).toBe(403);
        expect(r.body.error.message).toContain('needs the admin role');
      }
    }
    const o = await outsider(s);
    expect((await s.api('GET', `/v1/orgs/${org}/audit-events`, { token: o.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/nope/audit-events`)).status).toBe(404);
    expect((await s.api('GET', `/v1/orgs/${org}/audit-events/0b8e4c52-3f1d-4a8e-9c7b-2d5f6a1e9b30`)).status).toBe(404);
    // Another organization's event is not found through this one.
    const other = await newOrg(s);
    expect((await s.api('GET', `/v1/orgs/${other}/audit-events/${event.id}`)).status).toBe(404);
  });

  it('lists the action of every write operation with its label', async () => {
    const org = await newOrg(s);
    const r = await s.api('GET', `/v1/orgs/${org}/audit-event-actions`);
    expect(r.status).toBe(200);
    const ids = r.body.items.map((a: any) => a.id);
    expect(r.body.items).toContainEqual({ object: 'audit-event-action', id: 'space.created', label: 'Create a space' });
    expect(ids).toContain('change-request.merged');
    expect(ids).not.toContain('space.listed');
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('retention', () => {
  it('keeps the newest DOCS_AUDIT_MAX_EVENTS: reads show no more, rows are dropped in batches', async () => {
    process.env.DOCS_AUDIT_MAX_EVENTS = '5';
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'T0' } })).body;
    for (let i = 1; i <= 2 * RING + 3; i++) await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: `T${i}` } });
    const body = await list(org);
    expect(body.count).toBe(5);
    expect(body.items.every((e: any) => e.action === 'space.updated')).toBe(true);
    // The segments never a tenth over the bound; a place's ring never over RING.
    expect((await segmentsOf(org)).length).toBeLessThanOrEqual(6);
    const stored = await rowsOf(org);
    expect(stored.length).toBeLessThanOrEqual(6 + 2 * RING);
    // An event past the bound is gone to readers too.
    const shown = new Set(body.items.map((e: any) => e.id));
    const hidden = stored.map((r) => r.id.slice(-36)).find((id) => !shown.has(id))!;
    expect((await s.api('GET', `/v1/orgs/${org}/audit-events/${hidden}`)).status).toBe(404);
  });

  it('moves a full ring to the segments, the list unchanged by the move', async () => {
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'T0' } })).body;
    for (let i = 1; i <= RING; i++) await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: `T${i}` } });
    const before = await list(org);
    expect((await segmentsOf(org)).length).toBe(0); // all in rings so far (the space's ring is full)
    await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'Last' } });
    const after = await list(org);
    expect(after.items.slice(1)).toEqual(before.items);
    expect((await segmentsOf(org)).length).toBeGreaterThan(RING - 1);
  });

  it('reads the whole log to prune only when a batch may be due, not at every ring move (LogMemo)', async () => {
    const org = await newOrg(s);
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'T0' } })).body;
    // Count the writes' reads of the log (tx.find on auditEvents) that are answers: a run that
    // reached segments not loaded yet runs again (ShardStore), and its reading is not one.
    const store = s.ctx.store;
    const write = store.write;
    let reads = 0;
    store.write = ((fn: (tx: any) => unknown) =>
      write.call(store, (tx: any) =>
        fn(
          new Proxy(tx, {
            get(t, k) {
              if (k === 'find')
                return (tb: string, f: string, v: string) => {
                  const found = t.find(tb, f, v);
                  if (tb === AuditEvents && t.settled?.() !== false) reads++;
                  return found;
                };
              const x = t[k];
              return typeof x === 'function' ? x.bind(t) : x;
            },
          }),
        ),
      )) as typeof store.write;
    try {
      for (let i = 1; i <= 5 * (RING + 1); i++) await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: `T${i}` } });
    } finally {
      store.write = write;
    }
    // Five moves of the space's ring: the first reads the log (nothing known of it yet), the others count.
    expect((await segmentsOf(org)).length).toBeGreaterThanOrEqual(4 * (RING + 1));
    expect(reads).toBe(1);
    expect((await list(org)).count).toBe(5 * (RING + 1) + 2); // and the space's creation, the organization's
  });

  it('drops events older than DOCS_AUDIT_MAX_AGE_DAYS', async () => {
    const clock = new ManualClock();
    const t = await startServer({ clock });
    try {
      process.env.DOCS_AUDIT_MAX_AGE_DAYS = '10';
      const org = (await t.api('POST', '/v1/orgs', { body: { title: 'Aged' } })).body.id;
      const events = async () => (await t.api('GET', `/v1/orgs/${org}/audit-events`)).body.items;
      expect((await events()).length).toBe(1);
      clock.advance(10 * 86_400_000 + 1);
      expect(await events()).toEqual([]); // past the bound: not shown
      clock.advance(86_400_000);
      // The next write kept in the same place (the organization's shard) drops the aged event there.
      expect((await t.api('PATCH', `/v1/orgs/${org}`, { body: { title: 'Aged 2' } })).status).toBe(200);
      expect((await events()).map((e: any) => e.action)).toEqual(['organization.updated']);
      expect((await rowsOf(org, t)).map((r) => r.action)).toEqual(['organization.updated']);
    } finally {
      await t.stop();
    }
  });
});

/** `docs audit` through the CLI, wherever `env` sends it. */
async function cliScenario(env: Record<string, string>) {
  const space = (await docs(['spaces', 'create', '--title', 'Audited', '--json'], env)).json;
  expect(space?.id).toBeTruthy();
  env = { ...env, DOCS_ORG: space.organization };
  expect(space?.id).toBeTruthy();
  const a = await docs(['audit', '--action', 'space.created', '--since', '1h', '--json'], env);
  expect(a.status, a.stderr).toBe(0);
  expect(a.json.items.map((e: any) => e.target.id)).toEqual([space.id]);
  const table = await docs(['audit', '--since', '7d'], env);
  expect(table.status, table.stderr).toBe(0);
  expect(table.stdout).toContain('space.created');
  const actor = a.json.items[0].actor.id;
  expect((await docs(['audit', '--actor', actor, '--json'], env)).json.items.length).toBeGreaterThan(0);
  const got = await docs(['audit', 'get', a.json.items[0].id, '--json'], env);
  expect(got.status, got.stderr).toBe(0);
  expect(got.json.payload.operation).toBe('createSpace');
  const acts = await docs(['audit', 'actions'], env);
  expect(acts.stdout).toContain('space.created');
  const bad = await docs(['audit', '--since', 'last tuesday'], env);
  expect(bad.status).toBe(2);
  expect(bad.stderr).toContain('--since');
  expect((await docs(['audit', '--action', 'nope.nope'], env)).status).toBe(2);
  expect((await docs(['audit', 'get', '0b8e4c52-3f1d-4a8e-9c7b-2d5f6a1e9b30'], env)).status).toBe(3);
}

describe('docs audit', () => {
  it('in-process', async () => {
    await cliScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_audit_local' });
  }, 120_000);
  it('over HTTP', async () => {
    await cliScenario({ DOCS_API_URL: s.url, DOCS_TOKEN: s.token, DOCS_ORG: await newOrg(s) });
  }, 120_000);

  it('the audit operations give the same outcomes in process and over HTTP', async () => {
    const fresh = await startServer();
    const { local, remote } = await runBoth(fresh, async (t) => {
      const { out, step } = recorder();
      const organizationId = ((await t.call('listOrganizationsForAuthenticatedUser', {})).body as any).items[0].id;
      await t.call('createSpace', { path: { organizationId }, body: { title: 'Parity' } });
      const l: any = await step(() => t.call('listOrganizationAuditEvents', { path: { organizationId }, query: { action: 'space.created' } }));
      await step(() => t.call('getOrganizationAuditEvent', { path: { organizationId, auditEventId: l.items[0].id } }));
      await step(() => t.call('getOrganizationAuditEvent', { path: { organizationId, auditEventId: '0b8e4c52-3f1d-4a8e-9c7b-2d5f6a1e9b30' } }));
      await step(() => t.call('listOrganizationAuditEvents', { path: { organizationId }, query: { from: 'soon' } }));
      await step(() => t.call('listOrganizationAuditEventActions', { path: { organizationId } }));
      return out;
    }).finally(() => fresh.stop());
    // Event ids and correlation ids are uuids, which the parity's normalization leaves as they are.
    const uuids = (v: unknown) => JSON.parse(JSON.stringify(v).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{uuid}'));
    expect(uuids(remote)).toEqual(uuids(local));
    expect(JSON.stringify(local)).toContain('space.created');
  }, 60_000);
});
