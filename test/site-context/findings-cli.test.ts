import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite } from '../../src/site-context/scan.js';
import { docs } from '../helpers/cli.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { ask, makeSite, type Site } from './fixture.js';

// `docs sites context findings …`, `… scans …`, `… topics …` (docs/manual/site-findings.md) over HTTP
// (DOCS_API_URL, a running server) and in process (DOCS_DATA, the same data directory once the
// server has stopped): the same findings both ways.

let s: TestServer;
let site: Site;
let dataDir: string;
let gap: any;

beforeAll(async () => {
  // A directory of the test's own: the server removes one it made when it stops.
  dataDir = tempDir();
  s = await startServer({ dataDir });
  site = await makeSite(s);
  await ask(s, site, 'Where does the quantum parrot sleep?');
  await ask(s, site, 'Where does the quantum parrot sleep?');
  await scanSite(s.ctx, site.org, site.site);
  gap = (await s.api('GET', `${site.base}/findings?type=content-gap`)).body.items[0];
}, 90_000);
afterAll(() => s?.stop());

describe('docs sites context findings, scans and topics', () => {
  it('over HTTP: list, stats, update, scans, topics; bad input is exit 2 naming the flag', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const list = await docs(['sites', 'context', 'findings', 'list', site.site], env);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain('content-gap');
    expect(list.stdout).toContain('broken-link');
    const links = await docs(['sites', 'context', 'findings', 'list', site.site, '--type', 'broken-link', '--json'], env);
    expect(JSON.parse(links.stdout).items).toHaveLength(3);
    const bad = await docs(['sites', 'context', 'findings', 'list', site.site, '--type', 'nope'], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/type/);
    const stats = JSON.parse((await docs(['sites', 'context', 'findings', 'stats', site.site, '--json'], env)).stdout);
    expect(stats).toMatchObject({ total: 4, questions: 1 });
    const upd = await docs(['sites', 'context', 'findings', 'update', site.site, gap.id, '--status', 'canceled'], env);
    expect(upd.stdout).toContain(`✓ Finding ${gap.id} is canceled`);
    const scans = await docs(['sites', 'context', 'scans', 'list', site.site], env);
    expect(scans.stdout).toContain('done');
    const topics = await docs(['sites', 'context', 'topics', 'list', site.site], env);
    expect(topics.stdout).toMatch(/parrot|quantum|sleep/i);
    const qs = await docs(['sites', 'context', 'findings', 'questions', site.site, gap.id], env);
    expect(qs.stdout).toContain('Where does the quantum parrot sleep?');
  }, 60_000);

  it('in process, on the same data: the same findings; a topic’s findings deleted', async () => {
    await s.stop();
    const env = { DOCS_DATA: dataDir };
    const got = JSON.parse((await docs(['sites', 'context', 'findings', 'get', site.site, gap.id, '--json'], env)).stdout);
    expect(got).toMatchObject({ id: gap.id, status: 'canceled', type: 'content-gap' });
    const off = await docs(['sites', 'context', 'topics', 'update', site.site, gap.topic, '--no-change-requests'], env);
    expect(off.status, off.stderr).toBe(0);
    expect(off.stdout).toContain('change requests off');
    const del = await docs(['sites', 'context', 'topics', 'delete-findings', site.site, gap.topic, '--yes'], env);
    expect(del.stdout).toContain(`Deleted the findings of topic ${gap.topic}.`);
    const again = await docs(['sites', 'context', 'topics', 'delete-findings', site.site, gap.topic, '--yes'], env);
    expect(again.stdout).toContain('has no findings');
    expect((await docs(['sites', 'context', 'findings', 'get', site.site, gap.id], env)).status).not.toBe(0);
  }, 60_000);
});
