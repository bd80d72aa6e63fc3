import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/auth/bootstrap.js';
import { DocsError } from '../../src/kernel/errors.js';
import { openContext } from '../../src/open.js';
import { HttpTransport } from '../../src/transport/http.js';
import { LocalTransport } from '../../src/transport/local.js';
import type { Transport } from '../../src/transport/types.js';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';

/** Docs sites, as a list of observable outcomes (bodies, statuses, error kinds). */
async function scenario(t: Transport) {
  const out: unknown[] = [];
  const step = async (fn: () => Promise<{ status: number; body: unknown; headers: Record<string, string> }>) => {
    try {
      const r = await fn();
      out.push(r.status, r.body, r.headers.location ?? r.headers.Location ?? null);
      return r.body as any;
    } catch (e) {
      out.push(e instanceof DocsError ? { kind: e.kind, message: e.message } : String(e));
      return undefined;
    }
  };
  const org = ((await t.call('listOrganizationsForAuthenticatedUser')).body as any).items[0].id;
  const o = { organizationId: org };
  const a = await step(() => t.call('createSpace', { path: o, body: { title: 'Guides' } }));
  const b = await step(() => t.call('createSpace', { path: o, body: { title: 'API' } }));
  const site = await step(() => t.call('createSite', { path: o, body: { title: 'Docs', spaces: [a.id] } }));
  const p = { ...o, siteId: site.id };
  const sec = await step(() => t.call('addSectionToSite', { path: p, body: { spaceId: b.id } }));
  await step(() => t.call('addSectionToSite', { path: p, body: { spaceId: 'nope' } }));
  const g = await step(() => t.call('addSectionGroupToSite', { path: p, body: { title: 'Group', sections: [sec.id] } }));
  await step(() => t.call('sortSiteStructure', { path: p, body: { item: { type: 'site-section-group', id: g.id }, position: {} } }));
  await step(() => t.call('updateSiteSectionById', { path: { ...p, siteSectionId: sec.id }, body: { condition: 'visitor.claims.x ===' } }));
  await step(() => t.call('updateSiteSectionById', { path: { ...p, siteSectionId: sec.id }, body: { condition: 'visitor.claims.beta', path: 'api' } }));
  await step(() => t.call('updateSiteAdaptiveSchema', { path: p, body: { jsonSchema: { type: 'object', properties: { beta: { type: 'boolean', description: 'Beta' } }, additionalProperties: false } } }));
  await step(() => t.call('listSiteAdaptiveTemplateConditions', { path: p }));
  await step(() => t.call('publishSite', { path: p }));
  await step(() => t.call('publishSite', { path: p }));
  await step(() => t.call('getPublishedContentSite', { path: p }));
  await step(() => t.call('listSiteSpaces', { path: p, query: { default: 'true' } }));
  await step(() => t.call('deleteSiteSectionGroupById', { path: { ...p, siteSectionGroupId: g.id } }));
  await step(() => t.call('deleteSiteSectionGroupById', { path: { ...p, siteSectionGroupId: g.id } }));
  await step(() => t.call('getSiteStructure', { path: p }));
  await step(() => t.call('deleteSiteById', { path: p }));
  await step(() => t.call('getSiteById', { path: p }));
  return out;
}

/** Ids, times, cursors and the base URL differ between two stores; everything else must not. */
function normalize(value: unknown, base: string): unknown {
  const ids = new Map<string, string>();
  const walk = (v: any): any => {
    if (typeof v === 'string') {
      let s = v.split(base).join('{base}');
      s = s.replace(/\b[A-Za-z0-9]{20}\b/g, (id) => {
        if (!ids.has(id)) ids.set(id, `{id${ids.size}}`);
        return ids.get(id)!;
      });
      return /^\d{4}-\d\d-\d\dT/.test(s) ? '{time}' : s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'page' ? '{cursor}' : walk(x)]));
    return v;
  };
  return walk(value);
}

describe('docs sites: transport parity', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('gives the same results in-process and over HTTP', async () => {
    const ctx = await openContext(undefined, { baseUrl: 'http://local.test' });
    const boot = await bootstrap(ctx, 'gb_api_local');
    const local = LocalTransport.as(ctx, undefined, { userId: boot!.userId }, 'memory');
    const a = normalize(await scenario(local), 'http://local.test');
    const b = normalize(await scenario(new HttpTransport(server.url, TEST_TOKEN)), server.url);
    expect(a).toEqual(b);
    for (const kind of ['conflict', 'invalid', 'not_found']) expect(JSON.stringify(a)).toContain(`"kind":"${kind}"`);
    expect(a).toContain(205);
    expect(a).toContain(204);
    await ctx.store.close();
  });
});
