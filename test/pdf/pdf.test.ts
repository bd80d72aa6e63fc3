import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/kernel/clock.js';
import { addUser } from '../helpers/people.js';
import { png, readPdf } from '../helpers/pdf.js';
import { startServer, type TestServer } from '../helpers/server.js';

// getSpacePDF and getChangeRequestPDF over HTTP: the URL they answer is served by docs serve as
// application/pdf, rendered once per revision and selection, signed and valid one hour.

const clock = new ManualClock();
let s: TestServer;
let org: string;
let space: string;
let ids: Record<string, string>;

const edit = (cr: string, changes: object[]) => s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, { body: { changes } });

async function fetchPdf(url: string) {
  const r = await fetch(url);
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    disposition: r.headers.get('content-disposition'),
    bytes: Buffer.from(await r.arrayBuffer()),
  };
}
const text = (pdf: Awaited<ReturnType<typeof readPdf>>) => pdf.pages.map((p) => p.join('\n')).join('\n');
const storedPdfs = () =>
  readdirSync(join(s.dataDir!, 'pdf'), { recursive: true })
    .filter((f) => String(f).endsWith('.pdf'))
    .map(String);

beforeAll(async () => {
  s = await startServer({ onDisk: true, clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Acme Handbook' } })).body.id;
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Import' } })).body;
  const r = await edit(cr.id, [
    { operation: 'insert_files', files: [{ name: 'logo.png', ref: 'logo', contentType: 'image/png', base64: png(60, 30).toString('base64') }] },
    { operation: 'insert_page', ref: 'guide', title: 'Guide', document: { markdown: 'The **guide** starts here.\n\n![Logo](./logo.png)\n' } },
    {
      operation: 'insert_page',
      ref: 'setup',
      into: 'guide',
      title: 'Setup',
      document: { markdown: '## Install\n\n1. Download\n2. Run `acme init`\n\n```sh\nacme init --force\n```\n' },
    },
    {
      operation: 'insert_page',
      ref: 'faq',
      title: 'FAQ',
      document: { markdown: '---\ndescription: Common questions\n---\n> Ask us anything. See [setup](./setup.md).\n' },
    },
  ]);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const [guide, setup, faq] = r.body.changes.filter((c: any) => c.object === 'created_page').map((c: any) => c.page.id);
  ids = { guide, setup, faq };
  expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`)).status).toBe(200);
});
afterAll(() => s?.stop());

describe('getSpacePDF', () => {
  it('answers a URL served as application/pdf with every page in tree order, images included', async () => {
    const r = await s.api('GET', `/v1/spaces/${space}/pdf`);
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(new RegExp(`^${s.url}/pdf/${space}/[a-f0-9]{64}\\.pdf\\?`));
    const got = await fetchPdf(r.body.url);
    expect(got).toMatchObject({ status: 200, type: 'application/pdf', disposition: 'inline; filename=acme-handbook.pdf' });
    expect(got.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(got.bytes);
    expect(pdf.pageCount).toBe(3);
    expect(pdf.title).toBe('Acme Handbook');
    expect(pdf.pages.map((p) => p[0])).toEqual(['Guide', 'Setup', 'FAQ']);
    expect(text(pdf)).toContain('acme init --force');
    expect(pdf.pages[2]!.slice(0, 2)).toEqual(['FAQ', 'Common questions']); // the description under the title
    expect(pdf.images).toBe(1);
  });

  it('renders once per revision and selection: asking again reuses the stored file', async () => {
    const first = (await s.api('GET', `/v1/spaces/${space}/pdf`)).body.url as string;
    const files = storedPdfs();
    const file = join(s.dataDir!, 'pdf', files.find((f) => first.includes(f.slice(3, -4)))!);
    const before = statSync(file);
    const again = (await s.api('GET', `/v1/spaces/${space}/pdf`)).body.url as string;
    expect(again).toBe(first);
    expect(storedPdfs()).toEqual(files);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(file).ino).toBe(before.ino);
    // A new revision is new content: a new file.
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'More' } })).body;
    await edit(cr.id, [{ operation: 'update_page', page: ids.faq, document: { markdown: 'Rewritten answers.' } }]);
    await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
    const after = (await s.api('GET', `/v1/spaces/${space}/pdf`)).body.url as string;
    expect(after.split('?')[0]).not.toBe(first.split('?')[0]);
    expect(text(await readPdf((await fetchPdf(after)).bytes))).toContain('Rewritten answers.');
    expect(storedPdfs()).toHaveLength(files.length + 1);
  });

  it('prints one page with its subpages (page), or that page alone (only)', async () => {
    const sub = await s.api('GET', `/v1/spaces/${space}/pdf?page=${ids.guide}`);
    const subPdf = await readPdf((await fetchPdf(sub.body.url)).bytes);
    expect(subPdf.pages.map((p) => p[0])).toEqual(['Guide', 'Setup']);
    const one = await s.api('GET', `/v1/spaces/${space}/pdf?page=${ids.guide}&only=true`);
    const onePdf = await fetchPdf(one.body.url);
    expect(onePdf.disposition).toBe('inline; filename=acme-handbook-guide.pdf');
    expect((await readPdf(onePdf.bytes)).pages.map((p) => p[0])).toEqual(['Guide']);
    const leaf = await s.api('GET', `/v1/spaces/${space}/pdf?page=${ids.setup}&only=false`);
    expect((await readPdf((await fetchPdf(leaf.body.url)).bytes)).pages.map((p) => p[0])).toEqual(['Setup']);
  });

  it('refuses only without page (400), an unknown page or space (404)', async () => {
    const r = await s.api('GET', `/v1/spaces/${space}/pdf?only=true`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('page: required when only is true (only prints the page it names)');
    const missing = await s.api('GET', `/v1/spaces/${space}/pdf?page=nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(/^page nope not found/);
    expect((await s.api('GET', '/v1/spaces/nope/pdf')).status).toBe(404);
  });

  it('lets members who can read the space ask; outsiders and hidden spaces get 404', async () => {
    const reader = await addUser(s.ctx, org, 'read');
    expect((await s.api('GET', `/v1/spaces/${space}/pdf`, { token: reader.token })).status).toBe(200);
    const outsider = await addUser(s.ctx);
    const r = await s.api('GET', `/v1/spaces/${space}/pdf`, { token: outsider.token });
    expect(r.status).toBe(404);
    const closed = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Closed' } })).body.id;
    await s.api('PATCH', `/v1/spaces/${closed}`, { body: { defaultLevel: null } });
    expect((await s.api('GET', `/v1/spaces/${closed}/pdf`, { token: reader.token })).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${space}/pdf`, { token: null })).status).toBe(401);
  });
});

describe('the /pdf/ download route', () => {
  it('serves only signed, unexpired URLs of stored PDFs; no path outside the store', async () => {
    const url = new URL((await s.api('GET', `/v1/spaces/${space}/pdf`)).body.url);
    const sig = url.searchParams.get('sig')!;
    const tampered = new URL(url);
    tampered.searchParams.set('sig', sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA'));
    const renamed = new URL(url);
    renamed.searchParams.set('name', 'other.pdf');
    const otherSpace = new URL(url.href.replace(`/pdf/${space}/`, '/pdf/AAAAAAAAAAAAAAAAAAAA/'));
    for (const bad of [
      tampered.href,
      renamed.href,
      otherSpace.href,
      `${s.url}/pdf/${space}/..%2F..%2Fshards.pdf${url.search}`,
      `${s.url}/pdf/../shards/root.json`,
      `${s.url}/pdf/${space}/${'a'.repeat(64)}.pdf${url.search}`,
      url.href.split('?')[0]!,
    ]) {
      const r = await fetch(bad);
      expect(r.status, bad).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    // Valid one hour (the contract's "The URL will work for 1h"), rounded up to the hour.
    clock.advance(2 * 60 * 60 * 1000);
    expect((await fetch(url)).status).toBe(404);
    const fresh = (await s.api('GET', `/v1/spaces/${space}/pdf`)).body.url as string;
    expect(fresh.split('?')[0]).toBe(url.href.split('?')[0]); // same stored file, new signature
    expect((await fetchPdf(fresh)).status).toBe(200);
  });
});

describe('getChangeRequestPDF', () => {
  it("prints the change request's revision (not the space's), by id or number; 404 for an unknown one", async () => {
    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'New chapter' } })).body;
    await edit(cr.id, [{ operation: 'insert_page', title: 'Changelog', document: { markdown: '- Added the **changelog**.' } }]);
    const byNumber = await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}/pdf`);
    expect(byNumber.status).toBe(200);
    const byId = await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/pdf`);
    expect(byId.body.url).toBe(byNumber.body.url);
    const got = await fetchPdf(byNumber.body.url);
    expect(got.type).toBe('application/pdf');
    expect(got.disposition).toBe(`inline; filename=acme-handbook-cr-${cr.number}.pdf`);
    const pdf = await readPdf(got.bytes);
    expect(pdf.title).toBe(`Acme Handbook: change request #${cr.number} New chapter`);
    expect(pdf.pages.map((p) => p[0])).toEqual(['Guide', 'Setup', 'FAQ', 'Changelog']);
    const space_ = await readPdf((await fetchPdf((await s.api('GET', `/v1/spaces/${space}/pdf`)).body.url)).bytes);
    expect(space_.pages.map((p) => p[0])).not.toContain('Changelog');
    const only = await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}/pdf?only=true&page=${ids.faq}`);
    expect((await readPdf((await fetchPdf(only.body.url)).bytes)).pages.map((p) => p[0])).toEqual(['FAQ']);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/999/pdf`)).status).toBe(404);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}/pdf?page=nope`)).status).toBe(404);
    const outsider = await addUser(s.ctx);
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}/pdf`, { token: outsider.token })).status).toBe(404);
  });
});
