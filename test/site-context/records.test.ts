import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeSiteContextConnections } from '../../src/site-context/connections.js';
import { MAX_BODY_BYTES, MAX_UPSERT, recordsOfSite } from '../../src/site-context/records.js';
import { siteScansIdle } from '../../src/site-context/scan-worker.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';

// A site's context records (docs/manual/site-context.md#connections-and-records): pushed into the
// site's builtin:api connection (the same id replaces), listed with their filters, read by id;
// bad input is refused naming the field and writes nothing, not even the batch's good records.

let s: TestServer;
let org: string;
let reader: { userId: string; token: string };
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  reader = await addUser(s.ctx, org, 'read');
});
afterAll(() => s?.stop());

async function siteWithApi(title: string) {
  const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title } })).body;
  const o = `/v1/orgs/${org}/sites/${site.id}`;
  const conn = (await s.api('POST', `${o}/context-connections`, { body: { connector: 'builtin:api' } })).body;
  return { o, siteId: site.id as string, conn: conn.id as string };
}
/** The site's records, once the scan a push kicks has run (it files records under topics). */
const records = async (o: string, q = '') => {
  await siteScansIdle(s.ctx);
  return (await s.api('GET', `${o}/context-records${q}`)).body.items;
};
const ticket = (id: string, title: string, extra: Record<string, unknown> = {}) => ({ id, type: 'ticket', title, body: `# ${title}\n\nDetails.`, ...extra });

describe('context records', () => {
  it('needs a builtin:api connection to push to', async () => {
    const site = (await s.api('POST', `/v1/orgs/${org}/sites`, { body: { title: 'No api' } })).body;
    const o = `/v1/orgs/${org}/sites/${site.id}`;
    const r = await s.api('PUT', `${o}/context-records`, { body: [ticket('t1', 'Hello')] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('has no builtin:api connection');
    expect(await records(o)).toEqual([]);
  });

  it('pushes, replaces by id, lists with filters and reads records; deleting the connection deletes them', async () => {
    const { o, siteId, conn } = await siteWithApi('Records');
    const pushed = await s.api('PUT', `${o}/context-records`, {
      body: [
        ticket('T-1', 'Cannot reset my password', { url: 'https://support.example.com/t/1', createdAt: '2026-01-02T03:04:05.000Z', metadata: { priority: 2 } }),
        { id: 'kb-7', type: 'document', title: 'Rotating keys', description: 'How keys rotate', body: 'Keys rotate every 90 days.' },
      ],
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(204);
    const all = await records(o);
    expect(all.map((r: any) => r.title)).toEqual(['Cannot reset my password', 'Rotating keys']);
    const t1 = all[0];
    expect(t1).toEqual({
      object: 'context-record',
      id: t1.id,
      title: 'Cannot reset my password',
      type: 'ticket',
      createdAt: '2026-01-02T03:04:05.000Z',
      processedAt: t1.processedAt,
      connection: conn,
      connector: 'builtin:api',
      topics: t1.topics, // the scan's (src/site-context/scan.ts, tested there)
      urls: { location: `${s.url}${o}/context-records/${t1.id}`, source: 'https://support.example.com/t/1' },
    });
    expect((await s.api('GET', `${o}/context-records/${t1.id}`)).body).toEqual(t1);
    expect((await s.api('GET', `${o}/context-records/${t1.id}`, { token: reader.token })).status).toBe(200);
    expect((await s.api('GET', `${o}/context-connections/${conn}`)).body.records).toBe(2);

    // Filters.
    expect((await records(o, '?type=document')).map((r: any) => r.title)).toEqual(['Rotating keys']);
    expect((await records(o, `?connection=${conn}`)).length).toBe(2);
    expect((await records(o, '?connection=other')).length).toBe(0);
    expect((await records(o, '?connector=builtin:website')).length).toBe(0);
    expect((await records(o, '?topic=billing')).length).toBe(0);
    // A record's topics are the ones the site's scan put it in (the topic rows list their records).
    const topics = (await s.api('GET', `${o}/topics`)).body.items as { id: string; records: number }[];
    expect(topics.length).toBeGreaterThan(0);
    for (const t of topics) {
      const inTopic = await records(o, `?topic=${encodeURIComponent(t.id)}`);
      expect(inTopic.length).toBe(t.records);
      for (const r of inTopic) expect(r.topics).toContain(t.id);
    }
    expect(all.flatMap((r: any) => r.topics).sort()).toEqual(topics.flatMap((t) => Array(t.records).fill(t.id)).sort());

    // The same id replaces (its API id and createdAt kept); a new one adds.
    expect((await s.api('PUT', `${o}/context-records`, { body: [ticket('T-1', 'Password reset email never arrives'), ticket('T-2', 'Second')] })).status).toBe(
      204,
    );
    const again = await records(o);
    expect(again.map((r: any) => [r.id === t1.id, r.title])).toEqual([
      [true, 'Password reset email never arrives'],
      [false, 'Rotating keys'],
      [false, 'Second'],
    ]);
    // The scan side reads them, bodies included, from the site's own shard.
    const rows = await s.ctx.store.read((tx) => recordsOfSite(tx, siteId));
    expect(rows.map((r) => [r.localId, r.connector, r.body.split('\n')[0]])).toEqual([
      ['T-1', 'builtin:api', '# Password reset email never arrives'],
      ['kb-7', 'builtin:api', 'Keys rotate every 90 days.'],
      ['T-2', 'builtin:api', '# Second'],
    ]);

    // Another site's record, a made-up id: 404.
    const other = await siteWithApi('Other records');
    expect((await s.api('GET', `${other.o}/context-records/${t1.id}`)).status).toBe(404);
    expect((await s.api('GET', `${o}/context-records/${siteId}:${t1.id}`)).status).toBe(404);

    expect((await s.api('DELETE', `${o}/context-connections/${conn}`)).status).toBe(205);
    expect(await records(o)).toEqual([]);
    expect((await s.api('GET', `${o}/context-records/${t1.id}`)).status).toBe(404);
    expect(await s.ctx.store.read((tx) => recordsOfSite(tx, siteId))).toEqual([]);
  });

  it('refuses bad records naming the field, and writes none of the batch', async () => {
    const { o, conn } = await siteWithApi('Bad records');
    await s.api('PUT', `${o}/context-records`, { body: [ticket('keep', 'Kept')] });
    const before = await records(o);
    const good = ticket('new', 'Would be new');
    for (const [body, words] of [
      [[good, ticket('big', 'Big', { body: 'x'.repeat(MAX_BODY_BYTES + 1) })], `[1].body: ${MAX_BODY_BYTES + 1} bytes, more than the ${MAX_BODY_BYTES}`],
      // Bytes, not characters: 40,000 three-byte characters.
      [[good, ticket('wide', 'Wide', { body: '€'.repeat(40_000) })], '[1].body: 120000 bytes'],
      [[good, ticket('js', 'Script', { url: 'javascript:alert(1)' })], '[1].url: only http and https'],
      [[good, ticket('cred', 'Creds', { url: 'https://u:p@example.com/' })], '[1].url: a URL with a user name or password'],
      [[good, ticket('new', 'Twice')], '[1].id: "new" is given twice'],
      [[good, ticket('', 'No id')], '[1].id: must be 1 to 256'],
      [[good, ticket('t', 'x'.repeat(257))], 'title'],
      [[good, ticket('t', '')], 'title'],
      [[good, { id: 'n', title: 'No body', type: 'ticket' }], 'body'],
      [[good, ticket('t', 'Bad type', { type: 'email' })], 'type'],
      [Array.from({ length: MAX_UPSERT + 1 }, (_, i) => ticket(`m${i}`, `Many ${i}`)), `${MAX_UPSERT + 1} records, more than the ${MAX_UPSERT}`],
    ] as const) {
      const r = await s.api('PUT', `${o}/context-records`, { body });
      expect(r.status, words).toBe(400);
      expect(r.body.error.message, words).toContain(words);
    }
    // A reader may not push.
    expect((await s.api('PUT', `${o}/context-records`, { token: reader.token, body: [good] })).status).toBe(403);
    expect(await records(o)).toEqual(before);
    expect((await s.api('GET', `${o}/context-connections/${conn}`)).body.records).toBe(1);
    // Exactly at the limits: written.
    const edge = await s.api('PUT', `${o}/context-records`, { body: [ticket('edge', 'Edge', { body: 'y'.repeat(MAX_BODY_BYTES) })] });
    expect(edge.status).toBe(204);
  });

  it(`takes ${MAX_UPSERT} records in one push`, async () => {
    const { o, conn } = await siteWithApi('Many records');
    const r = await s.api('PUT', `${o}/context-records`, { body: Array.from({ length: MAX_UPSERT }, (_, i) => ticket(`m${i}`, `Many ${i}`)) });
    expect(r.status).toBe(204);
    expect((await s.api('GET', `${o}/context-connections/${conn}`)).body.records).toBe(MAX_UPSERT);
    const page = await s.api('GET', `${o}/context-records?limit=1000`);
    expect(page.body.items.length).toBe(MAX_UPSERT);
  });

  it("removes a site's connections and records in one write (for deleting the site), and no other site's", async () => {
    const a = await siteWithApi('Going');
    const b = await siteWithApi('Staying');
    for (const x of [a, b]) await s.api('PUT', `${x.o}/context-records`, { body: [ticket('r', 'R')] });
    await s.ctx.store.write((tx) => removeSiteContextConnections(tx, a.siteId));
    expect(await s.ctx.store.read((tx) => recordsOfSite(tx, a.siteId))).toEqual([]);
    expect((await s.api('GET', `${a.o}/context-connections`)).body.items).toEqual([]);
    expect((await records(b.o)).length).toBe(1);
    expect((await s.api('GET', `${b.o}/context-connections`)).body.items.length).toBe(1);
  });
});
