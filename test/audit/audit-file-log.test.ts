import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap, ownerOf } from '../../src/auth/bootstrap.js';
import { invoke } from '../../src/invoke.js';
import type { Caller, Context } from '../../src/kernel/context.js';
import { AuditEvents } from '../../src/audit/tables.js';
import { systemClock } from '../../src/kernel/clock.js';
import { DEFAULT_BASE_URL } from '../../src/open.js';
import { FileBackend } from '../../src/store/file-backend.js';
import { ShardStore } from '../../src/store/shard-store.js';
import { TABLES } from '../../src/store/tables.js';
import { openAsOwner } from '../helpers/owner-store.js';
import { startServer, tempDir } from '../helpers/server.js';

// A data directory keeps the audit log as a log file (src/store/log-files.ts): each event a line
// appended by its write's commit, no ring in the write's shard, no segment. A store written before
// (rings and segments) opens as it was: its events listed as before, its rings moved into the log
// by their place's next write, its segments by the organization's first trim, new events appended.

const TOKEN = 'gb_api_audit_file_log';

/** A context on `backend` with its owner bootstrapped, and a call of an operation as that owner. */
async function ownerOn(backend: FileBackend) {
  const ctx: Context = {
    store: await ShardStore.open(backend, TABLES),
    clock: systemClock,
    baseUrl: DEFAULT_BASE_URL,
    sessionTokens: new Map(),
    dataDir: backend.dir,
  };
  await bootstrap(ctx, TOKEN);
  const caller: Caller = { userId: (await ownerOf(ctx))! };
  const call = async (op: string, input: object) => {
    const r = await invoke(ctx, op, input as any, caller);
    if (r.status >= 400) throw new Error(`${op}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as any;
  };
  const org = (await call('listOrganizationsForAuthenticatedUser', {})).items[0].id as string;
  return { ctx, call, org };
}

const listing = (call: (op: string, input: object) => Promise<any>, org: string) =>
  call('listOrganizationAuditEvents', { path: { organizationId: org }, query: { limit: 100 } }).then((b) => b.items as any[]);
const storeFiles = (dir: string) => readdirSync(join(dir, 'store')).map((f) => readFileSync(join(dir, 'store', f), 'utf8'));

describe('the audit log of a data directory', () => {
  it('is a log file: a write rewrites no ring and no segment; the listing says what the rings said', async () => {
    const dir = tempDir();
    const disk = await startServer({ dataDir: dir });
    const memory = await startServer(); // rings and segments (the memory backend keeps no logs)
    try {
      const runs = [];
      for (const s of [disk, memory]) {
        const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
        const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Guides' } })).body;
        for (let i = 0; i < 20; i++) expect((await s.api('PATCH', `/v1/spaces/${space.id}`, { body: { title: `Guides ${i}` } })).status).toBe(200);
        await s.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: 'Hi' } } });
        const items = (await s.api('GET', `/v1/orgs/${org}/audit-events?limit=100`)).body.items as any[];
        runs.push(items.map((e) => [e.action, e.target.type, e.actor.label, e.source]));
      }
      expect(runs[0]).toEqual(runs[1]);
      expect(runs[0]!.length).toBe(22); // space, 20 renames, comment
    } finally {
      await Promise.all([disk.stop(), memory.stop()]);
    }
    expect(readdirSync(join(dir, 'logs'))).toHaveLength(1);
    expect(
      readFileSync(join(dir, 'logs', readdirSync(join(dir, 'logs'))[0]!), 'utf8')
        .trim()
        .split('\n'),
    ).toHaveLength(22);
    expect(storeFiles(dir).some((t) => t.includes('"auditRecent"') || t.includes('"auditEvents"'))).toBe(false);
  }, 60_000);

  it('opens a store written before log files: old events listed as before, rings moved once into the log, new events appended', async () => {
    const dir = tempDir();
    // The store as the docs before log files wrote it: 20 renames fill a ring (16) and move it to segments.
    const old = await ownerOn(new FileBackend(dir, { logs: false }));
    const space = (await old.call('createSpace', { path: { organizationId: old.org }, body: { title: 'Old' } })).id;
    for (let i = 0; i < 20; i++) await old.call('updateSpaceById', { path: { spaceId: space }, body: { title: `Old ${i}` } });
    const before = await listing(old.call, old.org);
    expect(before).toHaveLength(21);
    await old.ctx.store.close();
    expect(existsSync(join(dir, 'logs'))).toBe(false);
    const spaceShard = () => storeFiles(dir).find((t) => JSON.parse(t).spaces?.[space])!;
    expect(spaceShard()).toContain('"auditRecent"');
    expect(storeFiles(dir).some((t) => t.includes('"auditEvents"'))).toBe(true);

    const now = await openAsOwner(dir, TOKEN);
    try {
      expect(await listing(now.call, now.org)).toEqual(before);
      await now.call('updateSpaceById', { path: { spaceId: space }, body: { title: 'New' } });
      const after = await listing(now.call, now.org);
      expect(after.slice(1)).toEqual(before);
      expect(after[0].action).toBe('space.updated');
      // The organization's first trim in this process moved its segments into the log first (a write of their own).
      await expect.poll(() => now.ctx.store.read((tx) => tx.find(AuditEvents, 'organization', now.org).length)).toBe(0);
      expect(await listing(now.call, now.org)).toEqual(after);
      await now.ctx.store.close();
      // The ring left the space's shard for the log, with the new event; so did the segments.
      expect(spaceShard()).not.toContain('"auditRecent"');
      expect(storeFiles(dir).some((t) => t.includes('"auditEvents"'))).toBe(false);
      const lines = readFileSync(join(dir, 'logs', readdirSync(join(dir, 'logs'))[0]!), 'utf8')
        .trim()
        .split('\n');
      // Every event once: in the log, or in a ring of a place not written since (the organization's own shard).
      const ringsLeft = storeFiles(dir).reduce((n, t) => n + Object.keys(JSON.parse(t).auditRecent ?? {}).length, 0);
      expect(lines.length + ringsLeft).toBe(after.length);
      expect(new Set(lines.map((l) => JSON.parse(l).i)).size).toBe(lines.length);
      const again = await openAsOwner(dir, TOKEN);
      expect(await listing(again.call, again.org)).toEqual(after);
      await again.ctx.store.close();
    } finally {
      await now.ctx.store.close().catch(() => {});
    }
  }, 60_000);
});
