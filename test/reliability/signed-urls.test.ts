import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDownloadSecret, sign, MetaDownloadSecret } from '../../src/content/downloads.js';
import { openContext } from '../../src/open.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Signed download URLs cannot be bent: the signature covers one unambiguous encoding of its
// parts; names and types with control characters are refused (400 with the error body, never a
// 500 from a header Node refuses); every download comes with nosniff, an RFC 6266
// Content-Disposition and as an attachment (HTML and SVG included), in a sandbox.

let s: TestServer;
let space: string;

async function upload(files: { name: string; contentType: string; text: string }[]) {
  const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: { subject: 'Files' } })).body;
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
    body: {
      changes: [
        { operation: 'insert_files', files: files.map((f) => ({ name: f.name, contentType: f.contentType, base64: Buffer.from(f.text).toString('base64') })) },
      ],
    },
  });
  return { cr, r };
}

beforeAll(async () => {
  s = await startServer();
  const org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
  space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Files' } })).body.id;
});
afterAll(() => s.stop());

describe('signed download URLs', () => {
  it('sign one encoding of the parts: a separator inside a part cannot move the split', async () => {
    const ctx = await openContext(undefined);
    await ensureDownloadSecret(ctx);
    const asSent = sign(ctx, ['space', 'a'.repeat(64), 'x\ntext/html', 'text/plain', '1']);
    expect(sign(ctx, ['space', 'a'.repeat(64), 'x', 'text/html\ntext/plain', '1'])).not.toBe(asSent);
    expect(sign(ctx, ['space', 'a'.repeat(64), 'x\ntext/html', 'text/plain', '1'])).toBe(asSent);
    await ctx.store.close();
  });

  it('refuse control characters in names and types, at upload and at download, with a 400', async () => {
    for (const [name, contentType] of [
      ['x\ntext/html', 'text/plain'],
      ['a\rb.txt', 'text/plain'],
      ['ok.txt', 'text/html\ntext/plain'],
      ['ok.txt', 'text/plain\u0000'],
      ['ok.txt', 'text/plàin'],
    ]) {
      const { cr, r } = await upload([
        { name: 'first.txt', contentType: 'text/plain', text: 'a' },
        { name, contentType, text: 'b' },
      ]);
      expect(r.status, JSON.stringify([name, contentType])).toBe(400);
      expect(r.body.error.message).toMatch(/^changes\[0\]\.files\[1\]\.(name|contentType): /);
      expect((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items).toEqual([]);
    }
    const { cr } = await upload([{ name: 'good.txt', contentType: 'text/plain', text: 'good' }]);
    const url = new URL((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items[0].downloadURL);
    // The split the old encoding accepted, and other control characters: a 400, never a 500.
    for (const [k, v] of [
      ['name', 'good.txt\ntext/html'],
      ['type', 'text/html\ntext/plain'],
      ['name', 'a\u0085b'],
      ['type', 'text/plàin'],
    ]) {
      const bent = new URL(url);
      bent.searchParams.set(k!, v!);
      const res = await fetch(bent);
      expect(res.status, `${k}=${JSON.stringify(v)}`).toBe(400);
      expect(((await res.json()) as any).error).toMatchObject({ code: 400, message: expect.stringMatching(new RegExp(`^${k}: `)) });
    }
    // Any other change of a signed part is a 404, as for a wrong signature.
    const other = new URL(url);
    other.searchParams.set('type', 'text/html');
    expect((await fetch(other)).status).toBe(404);
    expect((await fetch(url)).status).toBe(200);
  });

  it('a link signed in the encoding of an earlier version answers 410 saying so (a forged one stays 404)', async () => {
    const { cr } = await upload([{ name: 'old.txt', contentType: 'text/plain', text: 'old' }]);
    const url = new URL((await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items[0].downloadURL);
    // What an earlier docs signed: the same parts joined by newlines, with the same secret.
    const secret = Buffer.from((await s.ctx.store.read((tx) => tx.get(MetaDownloadSecret, 'download-signing-key')))!.secret, 'base64url');
    const [, , spaceId, sha] = url.pathname.split('/');
    const q = url.searchParams;
    const legacy = new URL(url);
    legacy.searchParams.set(
      'sig',
      createHmac('sha256', secret)
        .update([spaceId, sha, q.get('name'), q.get('type'), q.get('exp')].join('\n'))
        .digest('base64url'),
    );
    const res = await fetch(legacy);
    expect(res.status).toBe(410);
    expect(((await res.json()) as any).error).toEqual({
      code: 410,
      message: 'this download link was issued by an older version of docs (its signature encoding has changed): get a new link from the API',
    });
    const forged = new URL(url);
    forged.searchParams.set('sig', 'A'.repeat(43));
    expect((await fetch(forged)).status).toBe(404);
    expect((await fetch(url)).status).toBe(200);
  });

  it('serve every file with nosniff, an RFC 6266 name and as an attachment, HTML and SVG included', async () => {
    const files = [
      { name: 'page.html', contentType: 'text/html', text: '<script>alert(1)</script>' },
      { name: 'pic.svg', contentType: 'image/svg+xml', text: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>' },
      { name: 'résumé "final".txt', contentType: 'text/plain; charset=utf-8', text: 'cv' },
      { name: 'notes.txt', contentType: 'text/plain', text: 'n' },
    ];
    const { cr, r } = await upload(files);
    expect(r.status).toBe(200);
    const listed = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content/files`)).body.items as any[];
    const got: Record<string, Headers> = {};
    for (const f of listed) {
      const res = await fetch(f.downloadURL);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(files.find((x) => x.name === f.name)!.text);
      got[f.name] = res.headers;
    }
    for (const h of Object.values(got)) {
      expect(h.get('x-content-type-options')).toBe('nosniff');
      expect(h.get('content-disposition')).toMatch(/^attachment; filename=/);
      expect(h.get('content-security-policy')).toMatch(/^sandbox\b/);
    }
    expect(got['page.html']!.get('content-disposition')).toBe('attachment; filename=page.html');
    expect(got['pic.svg']!.get('content-disposition')).toBe('attachment; filename=pic.svg');
    // Non-ASCII: an ASCII fallback and the exact name, UTF-8 percent-encoded (RFC 5987/6266).
    expect(got['résumé "final".txt']!.get('content-disposition')).toBe(
      `attachment; filename="r?sum? \\"final\\".txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.txt`,
    );
  });
});
