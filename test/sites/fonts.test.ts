import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docs } from '../helpers/cli.js';
import { runBoth } from '../helpers/parity.js';
import { addUser } from '../helpers/people.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';
import { page, spaceWith } from '../published/fixture.js';

// Custom fonts (docs/manual/site-delivery.md#custom-fonts): an upload URL per file, the bytes checked to be a font,
// the font made of uploaded faces, served by this server and by the published sites whose
// styling.font names it. Every API answer is checked against both specs by s.api.

/** Bytes that start as a font file of `tag` (the server reads the first 4 bytes). */
const fontBytes = (tag: 'wOF2' | 'wOFF' | 'OTTO' | 'ttf', fill = 'x') =>
  Buffer.concat([tag === 'ttf' ? Buffer.from([0, 1, 0, 0]) : Buffer.from(tag, 'latin1'), Buffer.alloc(60, fill)]);

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

async function ok(method: string, path: string, body?: unknown, status = 200, token?: string) {
  const r = await s.api(method, `/v1/orgs/${org}${path}`, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}
async function slot(bytes: Buffer, name = 'f.woff2') {
  return ok('POST', '/storage/upload', { kind: 'customization_font', file: { name, type: 'font/woff2', size: bytes.length } }, 201);
}
const put = (url: string, bytes: Buffer) => fetch(url, { method: 'PUT', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream' } });
async function uploaded(bytes: Buffer) {
  const u = await slot(bytes);
  const r = await put(u.url, bytes);
  expect(r.status, await r.clone().text()).toBe(200);
  return u.key as string;
}

describe('custom fonts over HTTP', () => {
  it('uploads faces, makes a font of them, lists, gets, updates, serves and deletes it', async () => {
    const regular = fontBytes('wOF2', 'r');
    const bold = fontBytes('wOFF', 'b');
    const u = await slot(regular);
    expect(u).toMatchObject({ object: 'storage-signed-url', key: expect.stringMatching(new RegExp(`^storage/${org}/`)) });
    expect(u.url).toMatch(new RegExp(`^${s.url}/storage/`));
    expect((await put(u.url, regular)).status).toBe(200);
    // An upload URL is used once.
    expect((await put(u.url, regular)).status).toBe(409);
    const boldKey = await uploaded(bold);

    const created = await s.api('PUT', `/v1/orgs/${org}/fonts`, {
      body: {
        fontFamily: 'Brand Sans',
        fontFaces: [
          { weight: 700, storageKey: boldKey },
          { weight: 400, storageKey: u.key },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const font = created.body;
    expect(created.headers.get('location')).toBe(`${s.url}/v1/orgs/${org}/fonts/${font.id}`);
    expect(font).toEqual({
      id: font.id,
      custom: true,
      fontFamily: 'Brand Sans',
      fontFaces: [
        { weight: 400, sources: [{ url: `${s.url}/fonts/${font.id}/400`, format: 'woff2' }] },
        { weight: 700, sources: [{ url: `${s.url}/fonts/${font.id}/700`, format: 'woff' }] },
      ],
      permissions: { edit: true },
    });
    const served = await fetch(font.fontFaces[0].sources[0].url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('font/woff2');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(regular);

    expect((await ok('GET', '/fonts')).items.map((f: any) => f.id)).toContain(font.id);
    expect(await ok('GET', `/fonts/${font.id}`)).toEqual(font);

    // Update: a TrueType weight added (no `format` in the contract's enum for it), 700 removed, renamed.
    const tt = await uploaded(fontBytes('ttf'));
    const up = await ok(
      'POST',
      `/fonts/${font.id}`,
      {
        fontFamily: 'Brand Sans 2',
        fontFaces: [
          { weight: 300, storageKey: tt },
          { weight: 700, storageKey: null },
        ],
      },
      201,
    );
    expect(up.fontFamily).toBe('Brand Sans 2');
    expect(up.fontFaces).toEqual([
      { weight: 300, sources: [{ url: `${s.url}/fonts/${font.id}/300` }] },
      { weight: 400, sources: [{ url: `${s.url}/fonts/${font.id}/400`, format: 'woff2' }] },
    ]);
    expect((await fetch(`${s.url}/fonts/${font.id}/700`)).status).toBe(404);
    expect((await fetch(`${s.url}/fonts/${font.id}/300`)).headers.get('content-type')).toBe('font/ttf');

    await ok('DELETE', `/fonts/${font.id}`, undefined, 205);
    await ok('DELETE', `/fonts/${font.id}`, undefined, 204);
    await ok('GET', `/fonts/${font.id}`, undefined, 404);
    expect((await fetch(`${s.url}/fonts/${font.id}/400`)).status).toBe(404);
  });

  it('refuses what is not a font (400, nothing kept) and bad faces (400)', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(56)]);
    const u = await slot(png, 'logo.png');
    const r = await put(u.url, png);
    expect(r.status).toBe(400);
    expect((await r.json()).error.message).toBe('body: the file is not a font (expected WOFF2, WOFF, TrueType or OpenType bytes)');
    // Nothing kept: the key names no file, and the slot still takes a real font afterwards.
    const refused = await s.api('PUT', `/v1/orgs/${org}/fonts`, { body: { fontFamily: 'X', fontFaces: [{ weight: 400, storageKey: u.key }] } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(`fontFaces[0].storageKey: nothing was uploaded to ${u.key} yet (PUT the file to its upload URL first)`);
    expect((await put(u.url, fontBytes('OTTO'))).status).toBe(200);

    // More bytes than announced (413), fewer (400); a forged signature (403); a size over the kind's limit.
    const small = await slot(fontBytes('wOF2'));
    expect((await put(small.url, Buffer.concat([fontBytes('wOF2'), Buffer.alloc(10)]))).status).toBe(413);
    expect((await put(small.url, fontBytes('wOF2').subarray(0, 40))).status).toBe(400);
    expect((await put(small.url.replace(/sig=[^&]+/, 'sig=forged'), fontBytes('wOF2'))).status).toBe(403);
    expect((await fetch(small.url)).status).toBe(405);
    const big = await s.api('POST', `/v1/orgs/${org}/storage/upload`, {
      body: { kind: 'customization_font', file: { name: 'a', type: 'font/woff2', size: 6e6 } },
    });
    expect(big.body.error.message).toBe('file.size: a file of kind customization_font is at most 5242880 bytes');
    // An upload of another kind is no font's face.
    const archive = await s.api('POST', `/v1/orgs/${org}/storage/upload`, {
      body: { kind: 'import_file', file: { name: 'a.zip', type: 'application/zip', size: 64 } },
    });
    await put(archive.body.url, fontBytes('wOF2'));
    const wrongKind = await s.api('PUT', `/v1/orgs/${org}/fonts`, { body: { fontFamily: 'X', fontFaces: [{ weight: 400, storageKey: archive.body.key }] } });
    expect(wrongKind.body.error.message).toBe(`fontFaces[0].storageKey: ${archive.body.key} was uploaded as import_file, not customization_font`);

    const key = await uploaded(fontBytes('wOF2'));
    const bad = async (body: unknown, message: string) => {
      const res = await s.api('PUT', `/v1/orgs/${org}/fonts`, { body });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    };
    await bad({ fontFamily: 'X', fontFaces: [{ weight: 700, storageKey: key }] }, 'fontFaces: a face of weight 400 (regular) is required');
    await bad(
      {
        fontFamily: 'X',
        fontFaces: [
          { weight: 400, storageKey: key },
          { weight: 400, storageKey: key },
        ],
      },
      'fontFaces: weight 400 is given twice',
    );
    await bad(
      { fontFamily: 'X', fontFaces: [{ weight: 400, storageKey: 'nope/nope' }] },
      'fontFaces[0].storageKey: not a storage key (storage/<organization>/<id>, from generateStorageUploadURL)',
    );
    await bad(
      { fontFamily: 'a"}body{x', fontFaces: [{ weight: 400, storageKey: key }] },
      'fontFamily: 1 to 50 letters, digits, spaces, - or _ (got "a\\"}body{x")',
    );
    // A key of another organization is not this one's.
    const other = (await s.api('POST', '/v1/orgs', { body: { title: 'Other' } })).body.id;
    const theirs = await s.api('POST', `/v1/orgs/${other}/storage/upload`, {
      body: { kind: 'customization_font', file: { name: 'a', type: 'font/woff2', size: 64 } },
    });
    await put(theirs.body.url, fontBytes('wOF2'));
    await bad(
      { fontFamily: 'X', fontFaces: [{ weight: 400, storageKey: theirs.body.key }] },
      `fontFaces[0].storageKey: ${theirs.body.key} is no upload of organization ${org}`,
    );
  });

  it('readers list fonts; only admins upload and change them', async () => {
    const reader = await addUser(s.ctx, org, 'read');
    const font = await ok('PUT', '/fonts', { fontFamily: 'Shared', fontFaces: [{ weight: 400, storageKey: await uploaded(fontBytes('wOF2')) }] }, 201);
    const seen = await ok('GET', `/fonts/${font.id}`, undefined, 200, reader.token);
    expect(seen.permissions).toEqual({ edit: false });
    const refused = await s.api('POST', `/v1/orgs/${org}/storage/upload`, {
      token: reader.token,
      body: { kind: 'customization_font', file: { name: 'a', type: 'font/woff2', size: 64 } },
    });
    expect(refused.status).toBe(403);
    await ok('DELETE', `/fonts/${font.id}`, undefined, 403, reader.token);
  });
});

describe('a custom font on a published site', () => {
  it('styling.font names it: the page declares @font-face served by the site itself, allowed by its CSP', async () => {
    const key = await uploaded(fontBytes('wOF2', 'q'));
    const font = await ok('PUT', '/fonts', { fontFamily: 'Site Sans', fontFaces: [{ weight: 400, storageKey: key }] }, 201);
    const sp = await spaceWith(s, org, 'Fonts', [page('a', 'Intro', '# Intro\n\nHello.\n')]);
    const site = await ok('POST', '/sites', { title: 'Fonted', spaces: [sp.space.id] }, 201);
    const base = (await ok('POST', `/sites/${site.id}/publish`)).urls.published;
    const before = await (await fetch(base)).text();
    expect(before).not.toContain('@font-face');
    const { permissions: _p, ...definition } = font;
    const current = await ok('GET', `/sites/${site.id}/customization`);
    await ok('PUT', `/sites/${site.id}/customization`, { ...current, styling: { ...current.styling, font: definition } });
    const res = await fetch(base);
    const html = await res.text();
    const path = new URL(base).pathname;
    expect(html).toContain(`@font-face{font-family:"Site Sans";font-weight:400;font-display:swap;src:url("${path}/~/fonts/${font.id}/400")}`);
    expect(html).toContain('--font:"Site Sans", system-ui, sans-serif');
    expect(res.headers.get('content-security-policy')).toContain("font-src 'self'");
    const face = await fetch(`${s.url}${path}/~/fonts/${font.id}/400`);
    expect(face.status).toBe(200);
    expect(face.headers.get('content-type')).toBe('font/woff2');
    expect(
      Buffer.from(await face.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOF2');
    // Only the site's organization's fonts: another organization's font id answers 404 there.
    const other = (await s.api('POST', '/v1/orgs', { body: { title: 'Other fonts' } })).body.id;
    const slotB = await s.api('POST', `/v1/orgs/${other}/storage/upload`, {
      body: { kind: 'customization_font', file: { name: 'a', type: 'font/woff2', size: 64 } },
    });
    await put(slotB.body.url, fontBytes('wOF2'));
    const theirs = (await s.api('PUT', `/v1/orgs/${other}/fonts`, { body: { fontFamily: 'Theirs', fontFaces: [{ weight: 400, storageKey: slotB.body.key }] } }))
      .body;
    expect((await fetch(`${s.url}${path}/~/fonts/${theirs.id}/400`)).status).toBe(404);
  });
});

async function cliScenario(env: Record<string, string>) {
  const run = async (args: string[], code = 0) => {
    const r = await docs(args, env);
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(code);
    return r;
  };
  const dir = tempDir();
  writeFileSync(join(dir, 'Brand-Regular.woff2'), fontBytes('wOF2'));
  writeFileSync(join(dir, 'Brand-Bold.otf'), fontBytes('OTTO'));
  writeFileSync(join(dir, 'logo.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(60)]));
  const notFont = await run(['fonts', 'create', '--family', 'Brand', '--face', `400=${join(dir, 'logo.png')}`], 2);
  expect(notFont.stderr).toContain('is not a font (expected WOFF2, WOFF, TrueType or OpenType bytes)');
  expect((await run(['fonts', 'list', '--json'])).json.items).toEqual([]);
  const badWeight = await run(['fonts', 'create', '--family', 'Brand', '--face', `bold=${join(dir, 'Brand-Bold.otf')}`], 2);
  expect(badWeight.stderr).toContain('--face: WEIGHT=FILE with a weight from 1 to 1000');
  const created = await run([
    'fonts',
    'create',
    '--family',
    'Brand',
    '--face',
    `400=${join(dir, 'Brand-Regular.woff2')}`,
    '--face',
    `700=${join(dir, 'Brand-Bold.otf')}`,
  ]);
  expect(created.stdout).toMatch(/^✓ Added font "Brand" \((\w+)\), weights 400, 700$/m);
  const id = /\((\w+)\)/.exec(created.stdout)![1]!;
  const listed = await run(['fonts', 'list']);
  expect(listed.stdout).toContain(`${id}\tBrand\t2`);
  const updated = await run(['fonts', 'update', id, '--face', '700=none', '--family', 'Brand Two']);
  expect(updated.stdout).toContain(`✓ Updated font "Brand Two" (${id}), weights 400`);
  const noRegular = await run(['fonts', 'update', id, '--face', '400=none'], 2);
  expect(noRegular.stderr).toContain('fontFaces: a face of weight 400 (regular) is required');
  const space = (await run(['spaces', 'create', '--title', 'G', '--json'])).json;
  const site = (await run(['sites', 'create', '--title', 'Fonted site', '--spaces', space.id, '--json'])).json;
  const customized = await run(['sites', 'customize', site.id, '--font', id]);
  expect(customized.stdout).toContain(`styling.font  Brand Two (custom font ${id})`);
  const stored = (await run(['sites', 'customization', site.id, '--json'])).json.styling.font;
  expect(stored).toMatchObject({ id, custom: true, fontFamily: 'Brand Two' });
  const got = (await run(['fonts', 'get', id, '--json'])).json;
  await run(['fonts', 'delete', id, '--yes']);
  const again = await run(['fonts', 'delete', id, '--yes'], 3);
  expect(again.stderr).toContain('nothing deleted');
  return [got.fontFamily, got.fontFaces.map((f: any) => [f.weight, f.sources[0].format ?? null])];
}

describe('docs fonts', () => {
  it('in process and over HTTP, the same', async () => {
    const local = await cliScenario({ DOCS_DATA: tempDir(), DOCS_BOOTSTRAP_TOKEN: 'gb_api_cli' });
    const remote = await cliScenario({
      DOCS_API_URL: s.url,
      DOCS_TOKEN: s.token,
      DOCS_ORG: (await s.api('POST', '/v1/orgs', { body: { title: 'CLI fonts' } })).body.id,
    });
    expect(local).toEqual(['Brand Two', [[400, 'woff2']]]);
    expect(remote).toEqual(local);
  });

  it('transport parity of the operations', async () => {
    const { local, remote } = await runBoth(s, async (t) => {
      const out: unknown[] = [];
      const organizationId = ((await t.call('createOrganization', { body: { title: 'Parity fonts' } })).body as any).id;
      const bytes = fontBytes('wOF2');
      const up = (
        await t.call('generateStorageUploadURL', {
          path: { organizationId },
          body: { kind: 'customization_font', file: { name: 'a.woff2', type: 'font/woff2', size: bytes.length } },
        })
      ).body as any;
      out.push(up);
      await t.upload(up.url, bytes);
      try {
        await t.upload(up.url, bytes);
      } catch (e: any) {
        out.push(e.kind, e.message);
      }
      const font = await t.call('createCustomFont', { path: { organizationId }, body: { fontFamily: 'P', fontFaces: [{ weight: 400, storageKey: up.key }] } });
      out.push(font.status, font.body);
      const fontId = (font.body as any).id;
      out.push((await t.call('getCustomFont', { path: { organizationId, fontId } })).body);
      out.push((await t.call('updateCustomFont', { path: { organizationId, fontId }, body: { fontFamily: 'Q' } })).body);
      out.push((await t.call('listCustomFonts', { path: { organizationId } })).body);
      out.push((await t.call('deleteCustomFont', { path: { organizationId, fontId } })).status);
      return out;
    });
    expect(remote).toEqual(local);
  });
});
