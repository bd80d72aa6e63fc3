import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsIdle } from '../../src/imports/runner.js';
import { ManualClock } from '../../src/kernel/clock.js';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

// Signed upload URLs: generateStorageUploadURL and PUT /storage/<id> (docs/manual/imports-and-git.md#upload-urls).

let s: TestServer;
let org: string;
let dataDir: string;
const clock = new ManualClock(Date.now());

beforeAll(async () => {
  // In a folder of its own: the test below checks that nothing appears beside the data directory,
  // which in the shared temp folder other test files write to at the same time.
  dataDir = join(tempDir('docs-storage-'), 'data');
  s = await startServer({ dataDir, clock });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

const zip = (files: Record<string, string>) => Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));
const put = (url: string, body: Buffer | string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', body: typeof body === 'string' ? body : new Uint8Array(body), headers });

async function uploadUrl(file: { name: string; type: string; size: number }, kind = 'import_file', token?: string) {
  return s.api('POST', `/v1/orgs/${org}/storage/upload`, { body: { file, kind }, ...(token ? { token } : {}) });
}

describe('signed upload URLs', () => {
  it('takes one upload of the declared size; the key then feeds an import run', async () => {
    const bytes = zip({ 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n', 'README.md': '# Welcome\n\nUploaded.\n' });
    const r = await uploadUrl({ name: 'site.zip', type: 'application/zip', size: bytes.length });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      object: 'storage-signed-url',
      url: expect.stringMatching(/\/storage\/[A-Za-z0-9]+\?exp=\d+&sig=/),
      key: expect.stringMatching(`^storage/${org}/`),
    });
    expect(r.body.url.startsWith(`${s.url}/storage/`)).toBe(true);
    const up = await put(r.body.url, bytes);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ key: r.body.key, size: bytes.length });
    // The bytes are a content-addressed blob of the data directory.
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(readFileSync(join(dataDir, 'files', sha.slice(0, 2), sha))).toEqual(bytes);

    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'From upload' } })).body.id;
    const run = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: [r.body.key] }, target: { space } } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    await importsIdle(s.ctx);
    expect((await s.api('GET', `/v1/org/${org}/imports/${run.body.id}`)).body.status).toBe('completed');
    // An import writes into a change request of the space (docs/manual/imports-and-git.md).
    const [cr] = (await s.api('GET', `/v1/spaces/${space}/change-requests`)).body.items;
    const pages = (await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/content`)).body.pages;
    expect(pages.map((p: any) => p.title)).toEqual(['Welcome']);
  });

  it('refuses a reused, tampered or expired URL, and a body of another size; nothing is stored', async () => {
    const body = Buffer.from('0123456789');
    const { url } = (await uploadUrl({ name: 'a.bin', type: 'application/octet-stream', size: 10 }, 'organization_file')).body;
    const u = new URL(url);
    const sig = u.searchParams.get('sig')!;
    const tampered = (f: (x: URL) => void) => {
      const x = new URL(url);
      f(x);
      return x.toString();
    };
    const forged = await put(
      tampered((x) => x.searchParams.set('sig', sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA'))),
      body,
    );
    expect(forged.status).toBe(403);
    expect((await forged.json()).error.message).toContain('signature');
    expect(
      (
        await put(
          tampered((x) => x.searchParams.set('exp', String(Number(x.searchParams.get('exp')) + 3_600_000))),
          body,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await put(
          tampered((x) => x.searchParams.delete('sig')),
          body,
        )
      ).status,
    ).toBe(403);
    // Another upload's id under this signature.
    const other = (await uploadUrl({ name: 'b.bin', type: 'application/octet-stream', size: 10 }, 'organization_file')).body.url;
    expect(
      (
        await put(
          tampered((x) => (x.pathname = new URL(other).pathname)),
          body,
        )
      ).status,
    ).toBe(403);

    const tooLong = await put(url, Buffer.from('0123456789ABC'));
    expect(tooLong.status).toBe(413);
    const tooShort = await put(url, Buffer.from('0123'));
    expect(tooShort.status).toBe(400);
    expect((await fetch(url)).status).toBe(405);
    expect((await put(url, body)).status).toBe(200); // still unused until now: the refusals changed nothing
    const again = await put(url, body);
    expect(again.status).toBe(409);
    expect((await again.json()).error.message).toContain('already used');

    const late = (await uploadUrl({ name: 'c.bin', type: 'application/octet-stream', size: 10 }, 'organization_file')).body.url;
    clock.advance(16 * 60 * 1000);
    const expired = await put(late, body);
    expect(expired.status).toBe(410);
    expect((await expired.json()).error.message).toContain('expired');
  });

  it('keeps every upload inside the data directory, whatever the name or the address says', async () => {
    const before = readdirSync(join(dataDir, '..'));
    const body = Buffer.from('escape attempt');
    const r = await uploadUrl({ name: '../../../../tmp/evil.sh', type: 'text/plain', size: body.length }, 'organization_file');
    expect(r.status).toBe(201);
    expect((await put(r.body.url, body)).status).toBe(200);
    const sha = createHash('sha256').update(body).digest('hex');
    expect(existsSync(join(dataDir, 'files', sha.slice(0, 2), sha))).toBe(true);
    expect(readdirSync(join(dataDir, '..')).sort()).toEqual(before.sort());
    expect(existsSync(join(tmpdir(), 'evil.sh'))).toBe(false);
    // Addresses that try to leave /storage/<id>: no such upload URL.
    const q = new URL(r.body.url).search;
    for (const path of ['/storage/..%2F..%2Fevil', '/storage/%2e%2e/%2e%2e/evil', '/storage/a/../../evil', '/storage/']) {
      const res = await put(`${s.url}${path}${q}`, body);
      expect([403, 404], path).toContain(res.status);
    }
  });

  it('checks the request: kind, size bounds, name, type, role; a key of another kind is refused by the import', async () => {
    expect((await uploadUrl({ name: 'f.woff2', type: 'font/woff2', size: 6 * 1024 * 1024 }, 'customization_font')).status).toBe(400);
    expect((await uploadUrl({ name: 'x', type: 'text/plain', size: 0 })).status).toBe(400);
    expect((await uploadUrl({ name: 'x\ny', type: 'text/plain', size: 3 })).status).toBe(400);
    expect((await s.api('POST', `/v1/orgs/${org}/storage/upload`, { body: { file: { name: 'x', type: 't/p', size: 3 }, kind: 'video' } })).status).toBe(400);
    const reader = await addUser(s.ctx, org, 'read');
    const refused = await uploadUrl({ name: 'x.zip', type: 'application/zip', size: 3 }, 'import_file', reader.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('create');
    const outsider = await addUser(s.ctx);
    expect((await uploadUrl({ name: 'x.zip', type: 'application/zip', size: 3 }, 'import_file', outsider.token)).status).toBe(404);

    const bytes = Buffer.concat([Buffer.from('wOF2', 'latin1'), Buffer.alloc(12)]); // a font's first bytes (checked: docs/manual/site-delivery.md#custom-fonts)
    const font = (await uploadUrl({ name: 'f.woff2', type: 'font/woff2', size: bytes.length }, 'customization_font')).body;
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Not from a font' } })).body.id;
    const notYet = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: [font.key] }, target: { space } } });
    expect(notYet.status).toBe(400);
    expect(notYet.body.error.message).toContain('customization_font');
    expect((await put(font.url, bytes)).status).toBe(200);
    const pending = (await uploadUrl({ name: 'later.zip', type: 'application/zip', size: 3 })).body;
    const empty = await s.api('POST', `/v1/org/${org}/imports`, { body: { source: { type: 'file', files: [pending.key] }, target: { space } } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('nothing was uploaded');
  });

  it('docs storage upload-url fills the file from --path, over HTTP and in-process', async () => {
    const dir = tempDir('docs-storage-cli-');
    const file = join(dir, 'site.zip');
    const bytes = zip({ 'README.md': '# Hi\n' });
    (await import('node:fs')).writeFileSync(file, bytes);
    for (const env of [
      { DOCS_API_URL: s.url, DOCS_TOKEN: s.token },
      { DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_storage_cli_owner' },
    ]) {
      const r = await docs(['storage', 'upload-url', '--kind', 'import_file', '--path', file, '--json'], env);
      expect(r.status, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ object: 'storage-signed-url', key: expect.stringMatching(/^storage\//) });
    }
    const r = await docs(['storage', 'upload-url', '--kind', 'import_file', '--path', file, '--json'], { DOCS_API_URL: s.url, DOCS_TOKEN: s.token });
    expect((await put(r.json.url, bytes)).status).toBe(200);
    const bad = await docs(['storage', 'upload-url', '--kind', 'import_file', '--path', join(dir, 'missing.zip')], {
      DOCS_API_URL: s.url,
      DOCS_TOKEN: s.token,
    });
    expect(bad.status).toBe(2);
  });
});
