import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteScans } from '../../src/site-context/finding-tables.js';
import { queueScan, runScan, scanSite } from '../../src/site-context/scan.js';
import { kickSiteScans, siteScansIdle } from '../../src/site-context/scan-worker.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { addRecords, ask, makeSite, type Site } from './fixture.js';

// Scans (src/site-context/scan.ts, scan-worker.ts; docs/manual/site-findings.md#when-scans-run):
// a scan row goes pending -> running -> done (or failed, with the error), counts its findings by
// severity; the worker of `docs serve` scans a site whose inputs changed since its last scan,
// and only then.

let s: TestServer;
let site: Site;
const scans = async (q = '') => (await s.api('GET', `${site.base}/scans${q}`)).body;

beforeAll(async () => {
  s = await startServer();
  site = await makeSite(s);
}, 90_000);
afterAll(() => s?.stop());

describe('a scan', () => {
  it('is pending when queued, running, then done with its findings by severity', async () => {
    const queued = await s.ctx.store.write((tx) => queueScan(tx, s.ctx, site.org, site.site));
    expect((await s.api('GET', `${site.base}/scans/${encodeURIComponent(queued.id)}`)).body).toMatchObject({
      object: 'site-scan',
      status: 'pending',
      topic: null,
    });
    const done = await runScan(s.ctx, queued.id);
    expect(done.status).toBe('done');
    const shown = (await s.api('GET', `${site.base}/scans/${encodeURIComponent(queued.id)}`)).body;
    // The fixture's three broken links: two links to missing pages (medium), one to a missing anchor (low).
    expect(shown).toMatchObject({ status: 'done', findings: { low: 1, medium: 2, high: 0 }, startedAt: expect.any(String), finishedAt: expect.any(String) });
    expect((await scans('?status=done')).items.map((x: any) => x.id)).toContain(queued.id);
    expect((await scans('?status=failed')).count).toBe(0);
  });

  it('that cannot run is failed, with the reason', async () => {
    const queued = await s.ctx.store.write((tx) => queueScan(tx, s.ctx, site.org, site.site));
    // Its site gone from under it.
    await s.ctx.store.write((tx) => tx.put(SiteScans, { ...tx.get(SiteScans, queued.id)!, site: 'gone' }));
    const failed = await runScan(s.ctx, queued.id);
    expect(failed).toMatchObject({ status: 'failed', failureMessage: 'site gone not found' });
  });

  it('lists the most recent first; a topic filter naming no topic is a 400', async () => {
    const list = (await scans()).items;
    expect(list.map((x: any) => x.createdAt)).toEqual([...list.map((x: any) => x.createdAt)].sort().reverse());
    const bad = await s.api('GET', `${site.base}/scans?topic=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^topic: no topic nope/);
  });
});

describe('the worker', () => {
  it('scans a site whose questions or records changed since its last scan, and not again while nothing changes', async () => {
    await scanSite(s.ctx, site.org, site.site);
    const n = (await scans()).count;
    kickSiteScans(s.ctx, site.site);
    await siteScansIdle(s.ctx);
    expect((await scans()).count).toBe(n);
    await addRecords(s, site, [{ title: 'Parrot cage cleaning', body: 'How to clean the parrot cage.' }]);
    kickSiteScans(s.ctx, site.site);
    await siteScansIdle(s.ctx);
    expect((await scans()).count).toBe(n + 1);
    await ask(s, site, 'Where is the parrot cage?');
    kickSiteScans(s.ctx);
    await siteScansIdle(s.ctx);
    expect((await scans()).count).toBe(n + 2);
    expect((await s.api('GET', `${site.base}/topics`)).body.items.some((t: any) => /parrot|cage/i.test(t.label))).toBe(true);
  });

  it('is kicked by records pushed through the API (upsertSiteContextRecords)', async () => {
    await scanSite(s.ctx, site.org, site.site);
    const n = (await scans()).count;
    expect((await s.api('POST', `${site.base}/context-connections`, { body: { connector: 'builtin:api' } })).status).toBe(201);
    const pushed = await s.api('PUT', `${site.base}/context-records`, {
      body: [{ id: 'kick-1', type: 'ticket', title: 'Walrus feeding times', body: 'When are the walruses fed?' }],
    });
    expect(pushed.status).toBe(204);
    await siteScansIdle(s.ctx);
    expect((await scans()).count).toBe(n + 1);
  });

  it('scans on start the sites whose inputs changed while no process held the store', async () => {
    const dataDir = tempDir();
    const first = await startServer({ dataDir });
    const there = await makeSite(first);
    await ask(first, there, 'Where does the quantum parrot sleep?');
    await first.stop();
    const again = await startServer({ dataDir });
    try {
      await siteScansIdle(again.ctx);
      const list = (await again.api('GET', `${there.base}/scans`)).body;
      expect(list.items).toMatchObject([{ status: 'done' }]);
    } finally {
      await again.stop();
    }
  }, 60_000);
});
