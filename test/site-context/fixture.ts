import { expect } from 'vitest';
import type { ContextConnectionRecord, ContextRecordRow } from '../../src/site-context/model.js';
import { contextRecordKey } from '../../src/site-context/model.js';
import { ContextConnections, ContextRecords } from '../../src/site-context/tables.js';
import type { TestServer } from '../helpers/server.js';

// The fixed site of the findings tests: a space of three pages (one link to a page that is not
// there but is named like one that is, one to a missing anchor, one to nothing like any page),
// a site showing it, questions asked on it (some the pages answer, a group they do not), and
// records of one connection written straight into the store (as the connections side will).

export interface Site {
  org: string;
  space: string;
  site: string;
  siteSpace: string;
  connection: string;
  base: string;
}

export const PAGES = [
  {
    title: 'Refunds',
    markdown:
      '# Refunds\n\nCustomers can ask for a refund within 30 days of purchase. Refunds are paid back to the card in five days.\n\nSee [shipping](./old/shipping.md) and [the policy](./policy.md#returns-window).\n\n## Card payments\n\nCard refunds take five days.',
  },
  {
    title: 'Shipping',
    markdown: 'Orders ship from Lyon. Express shipping takes two days. Shipping costs are never refunded. Back to [refunds](./refunds.md#card-payments).',
  },
  { title: 'Policy', markdown: 'Our policy: be kind. Read [the terms](./terms-of-sale.md).\n\n## Returns\n\nReturns are free.' },
];

export async function write(s: TestServer, spaceId: string, pages: { title: string; markdown: string }[]) {
  const cr = (await s.api('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Write' } })).body.id;
  const changes = pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }));
  expect((await s.api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, { body: { changes } })).status).toBeLessThan(300);
  expect((await s.api('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
}

export async function makeSite(s: TestServer, title = 'Help center'): Promise<Site> {
  const orgs = await s.api('GET', '/v1/orgs');
  if (!orgs.body?.items) throw new Error(JSON.stringify(orgs));
  const org = orgs.body.items[0].id;
  const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Help' } })).body.id;
  await write(s, space, PAGES);
  const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title } })).body.id;
  const base = `/v1/orgs/${org}/sites/${site}`;
  const siteSpace = (await s.api('POST', `${base}/site-spaces`, { body: { spaceId: space } })).body.id;
  const connection = `${site}-conn`;
  const now = s.ctx.clock.now().toISOString();
  await s.ctx.store.write((tx) => {
    const row: ContextConnectionRecord = {
      id: connection,
      organization: org,
      site,
      connector: 'builtin:zendesk',
      status: 'succeeded',
      usageSettings: { changeRequests: true, search: true, searchBoost: 'normal' },
      createdAt: now,
      updatedAt: now,
      createdBy: 'owner',
    };
    tx.put(ContextConnections, row);
  });
  return { org, space, site, siteSpace, connection, base };
}

let n = 0;
/** Records of the site's connection, stored as the connections side stores them. */
export async function addRecords(
  s: TestServer,
  site: Site,
  records: { title: string; body: string; type?: 'ticket' | 'document'; sourceCreatedAt?: string }[],
) {
  const now = s.ctx.clock.now().toISOString();
  const ids: string[] = [];
  await s.ctx.store.write((tx) => {
    for (const r of records) {
      const localId = `r${++n}`;
      const row: ContextRecordRow = {
        id: `${site.site}:${localId}-${n}`,
        organization: site.org,
        site: site.site,
        connection: site.connection,
        connector: 'builtin:zendesk',
        localId,
        key: contextRecordKey(site.connection, localId),
        type: r.type ?? 'ticket',
        title: r.title,
        body: r.body,
        url: `https://support.example.com/${localId}`,
        ...(r.sourceCreatedAt ? { sourceCreatedAt: r.sourceCreatedAt } : {}),
        createdAt: now,
        updatedAt: now,
      };
      tx.put(ContextRecords, row);
      ids.push(row.id);
    }
  });
  return ids;
}

export const ask = (s: TestServer, site: Site, question: string) =>
  s.api('POST', `${site.base}/ask`, { body: { question, scope: { mode: 'all' } } }).then((r) => expect(r.status).toBe(200));
