import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanSite } from '../../src/site-context/scan.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { addRecords, ask, makeSite, write, type Site } from './fixture.js';

// The rules of a scan (src/site-context/scan.ts, docs/manual/site-findings.md#what-a-scan-does),
// each on fixed data: content gaps (topics the pages do not answer), candidates, broken links
// (page, file, anchor; a redirect when a page is named like the missing one), outdated pages, and
// re-scans (same ids, people's decisions kept, resolved findings done, deleted ones not remade).

let s: TestServer;
let site: Site;
const findings = async (q = '') => (await s.api('GET', `${site.base}/findings${q}`)).body.items as any[];
const byType = (items: any[], type: string) => items.filter((f) => f.type === type);

beforeAll(async () => {
  s = await startServer();
  site = await makeSite(s);
  await ask(s, site, 'How do I get a refund?');
  await ask(s, site, 'How do I configure SAML single sign-on with Okta?');
  await ask(s, site, 'How do I configure SAML single sign-on with Okta?');
  await ask(s, site, 'Is SAML single sign-on available with Azure?');
  await ask(s, site, 'Where is the office parrot kept?');
  await addRecords(s, site, [{ title: 'SAML sign-on with Okta fails', body: 'Customer cannot configure SAML single sign-on with Okta, login loops.' }]);
  await scanSite(s.ctx, site.org, site.site);
}, 90_000);
afterAll(() => s?.stop());

describe('content gaps', () => {
  it('a topic most of whose questions and records no page answers is an open gap, with its evidence and a severity from its weight', async () => {
    const gaps = byType(await findings(), 'content-gap');
    expect(gaps).toHaveLength(1);
    expect(gaps[0]).toMatchObject({ status: 'open', severity: 'medium', questions: 2, records: 1, autoFixable: false, changeRequests: 0 });
    expect(gaps[0].title).toMatch(/^No page answers: .*saml/i);
    expect(gaps[0].topic).toEqual(expect.any(String));
    const qs = (await s.api('GET', `${site.base}/findings/${gaps[0].id}/questions`)).body.items.map((q: any) => q.question).sort();
    expect(qs).toEqual(['How do I configure SAML single sign-on with Okta?', 'Is SAML single sign-on available with Azure?']);
    const recs = (await s.api('GET', `${site.base}/findings/${gaps[0].id}/records`)).body.items;
    expect(recs).toMatchObject([
      { object: 'context-record', title: 'SAML sign-on with Okta fails', type: 'ticket', connector: 'builtin:zendesk', topics: [gaps[0].topic] },
    ]);
  });

  it('a question the pages answer makes no gap', async () => {
    const all = [...(await findings()), ...(await findings('?status=candidate'))];
    expect(all.some((f) => /refund/i.test(f.title) && f.type === 'content-gap')).toBe(false);
  });

  it('a gap of one question asked once is a candidate: not listed, not counted, listed when asked for', async () => {
    expect((await findings()).some((f) => /parrot/i.test(f.title))).toBe(false);
    const cands = await findings('?status=candidate');
    expect(cands).toMatchObject([{ type: 'content-gap', status: 'candidate', severity: 'low', questions: 1 }]);
    expect(cands[0].title).toMatch(/parrot/i);
    const stats = (await s.api('GET', `${site.base}/stats/findings`)).body;
    expect(stats.total).toBe((await findings()).length);
    expect((await s.api('GET', `${site.base}/stats/findings?status=candidate`)).body.total).toBe(0);
  });
});

describe('broken links', () => {
  it('a link to a missing page named like a page of the space: medium, with the redirect that fixes it', async () => {
    const f = byType(await findings(), 'broken-link').find((x) => x.title.includes('old/shipping'));
    expect(f).toMatchObject({
      status: 'open',
      severity: 'medium',
      autoFixable: true,
      pages: 1,
      brokenLinkAction: { source: '/old/shipping', destination: { kind: 'path', spaceId: site.space, path: 'shipping' } },
    });
    const pages = (await s.api('GET', `${site.base}/findings/${f.id}/pages`)).body.items;
    expect(pages).toMatchObject([{ object: 'site-finding-page', spaceId: site.space, page: { title: 'Refunds', type: 'document', path: 'refunds' } }]);
  });

  it('a link to a page named like none: no redirect', async () => {
    const f = byType(await findings(), 'broken-link').find((x) => x.title.includes('terms-of-sale'));
    expect(f).toMatchObject({ severity: 'medium' });
    expect(f.brokenLinkAction).toBeUndefined();
  });

  it('a link to an anchor no heading has: low; an anchor that exists is no finding', async () => {
    const links = byType(await findings(), 'broken-link');
    expect(links.filter((x) => x.title.includes('#returns-window'))).toMatchObject([{ severity: 'low' }]);
    expect(links.some((x) => x.title.includes('card-payments'))).toBe(false);
    expect(links).toHaveLength(3);
  });
});

describe('outdated pages', () => {
  it('a document record about a page, brought in after the page last changed, makes it outdated; an older one does not', async () => {
    await addRecords(s, site, [
      {
        type: 'document',
        title: 'Old refund rules',
        body: 'Refunds within 30 days of purchase, paid back to the card in five days.',
        sourceCreatedAt: '2020-01-01T00:00:00Z',
      },
    ]);
    await scanSite(s.ctx, site.org, site.site);
    expect(byType(await findings(), 'content-outdated')).toHaveLength(0);
    await addRecords(s, site, [
      {
        type: 'document',
        title: 'New refund rules',
        body: 'From now on refunds of a purchase are paid back to the card within 14 days.',
        sourceCreatedAt: '2099-01-01T00:00:00Z',
      },
    ]);
    await scanSite(s.ctx, site.org, site.site);
    const out = byType(await findings(), 'content-outdated');
    expect(out).toMatchObject([{ status: 'open', severity: 'low', records: 1, pages: 1, questions: 0 }]);
    expect(out[0].title).toBe('May be outdated: Refunds');
  });
});

describe('re-scans', () => {
  it('update the findings they found before (same ids, no duplicates) and keep a person’s decision', async () => {
    const before = await findings();
    const link = byType(before, 'broken-link').find((x) => x.title.includes('terms-of-sale'));
    expect((await s.api('PATCH', `${site.base}/findings/${link.id}`, { body: { status: 'canceled' } })).body.status).toBe('canceled');
    await scanSite(s.ctx, site.org, site.site);
    const after = await findings();
    expect(after.map((f) => f.id).sort()).toEqual(before.map((f) => f.id).sort());
    expect(after.find((f) => f.id === link.id).status).toBe('canceled');
  });

  it('a gap the pages now answer is done (resolved by the scan)', async () => {
    const gap = byType(await findings(), 'content-gap')[0];
    await write(s, site.space, [
      {
        title: 'SAML single sign-on',
        markdown:
          'Configure SAML single sign-on with Okta or Azure: open the settings, choose SAML, paste the metadata URL. Single sign-on is available on every plan.',
      },
    ]);
    await scanSite(s.ctx, site.org, site.site);
    expect((await s.api('GET', `${site.base}/findings/${gap.id}`)).body.status).toBe('done');
  });

  it('a finding a scan resolved opens again when found again', async () => {
    const change = async (changes: unknown[]) => {
      const cr = (await s.api('POST', `/v1/spaces/${site.space}/change-requests`, { body: { subject: 'Edit' } })).body.id;
      expect((await s.api('POST', `/v1/spaces/${site.space}/change-requests/${cr}/content?compat=false`, { body: { changes } })).status).toBeLessThan(300);
      expect((await s.api('POST', `/v1/spaces/${site.space}/change-requests/${cr}/merge`)).status).toBe(200);
    };
    await write(s, site.space, [{ title: 'Pets', markdown: 'Read [the kennel](./kennel.md).' }]);
    await scanSite(s.ctx, site.org, site.site);
    const f = byType(await findings(), 'broken-link').find((x) => x.title.includes('kennel'));
    expect(f.status).toBe('open');
    await write(s, site.space, [{ title: 'Kennel', markdown: 'The kennel.' }]);
    await scanSite(s.ctx, site.org, site.site);
    expect((await s.api('GET', `${site.base}/findings/${f.id}`)).body.status).toBe('done');
    const kennel = (await s.api('GET', `/v1/spaces/${site.space}/content/pages`)).body.pages.find((p: any) => p.title === 'Kennel');
    await change([{ operation: 'delete_page', page: kennel.id }]);
    await scanSite(s.ctx, site.org, site.site);
    expect((await s.api('GET', `${site.base}/findings/${f.id}`)).body.status).toBe('open');
  });

  it('deleted findings of a topic stay deleted until they have more evidence', async () => {
    const gap = (await findings('?status=candidate')).find((f) => /parrot/i.test(f.title));
    const del = await s.api('DELETE', `${site.base}/topics/${gap.topic}/findings`);
    expect(del.status).toBe(205);
    expect((await s.api('GET', `${site.base}/findings/${gap.id}`)).status).toBe(404);
    expect((await s.api('DELETE', `${site.base}/topics/${gap.topic}/findings`)).status).toBe(204);
    await scanSite(s.ctx, site.org, site.site);
    expect((await s.api('GET', `${site.base}/findings/${gap.id}`)).status).toBe(404);
    await ask(s, site, 'Which cage holds the office parrot?');
    await scanSite(s.ctx, site.org, site.site);
    expect((await s.api('GET', `${site.base}/findings/${gap.id}`)).body).toMatchObject({ id: gap.id, questions: 2, status: 'open' });
  });
});
