import { createHash } from 'node:crypto';
import { readBlob, writeBlob } from '../content/blobs.js';
import { ensureDownloadSecret, sign, verifySignature } from '../content/downloads.js';
import type { Context } from '../kernel/context.js';
import { apiUrl } from '../kernel/context.js';
import { DocsError, notFound } from '../kernel/errors.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import * as fonts from './fonts.js';
import { CustomFonts, StorageUploads } from './tables.js';

// Custom fonts and their uploads (docs/manual/site-delivery.md#custom-fonts). Here because they write bytes (the
// content area's blobs): the rules are in fonts.ts.

export const generateStorageUploadURL = defineOperation('generateStorageUploadURL', async ({ ctx, caller, path, body }) => {
  const row = await ctx.store.write((tx) => {
    const { org } = fonts.fontMember(tx, caller, path.organizationId, 'admin', 'uploading a font');
    return fonts.newUpload(tx, ctx, org, caller, body);
  });
  await ensureDownloadSecret(ctx);
  return { status: 201, body: { object: 'storage-signed-url' as const, url: uploadUrl(ctx, row.id, row.expiresAt), key: row.id } };
});

const uploadParts = (key: string, exp: string) => ['upload', key, exp];

function uploadUrl(ctx: Context, key: string, expiresAt: string): string {
  const exp = String(Date.parse(expiresAt));
  return `${ctx.baseUrl}/uploads/${key}?${new URLSearchParams({ exp, sig: sign(ctx, uploadParts(key, exp)) })}`;
}

/**
 * PUT `/uploads/<key>?exp&sig` (the URL generateStorageUploadURL gave): the bytes, checked to be
 * a font (400 and nothing kept otherwise), written as a blob and recorded on the slot. In process
 * (`Transport.upload`) the same check runs without HTTP. docs/manual/site-delivery.md#uploading-a-font-file
 */
export async function acceptUpload(ctx: Context, pathname: string, search: string, bytes: Buffer): Promise<{ key: string; format: string }> {
  await ensureDownloadSecret(ctx);
  const m = /^\/uploads\/([A-Za-z0-9]+\/[A-Za-z0-9]+)$/.exec(pathname);
  const q = new URLSearchParams(search);
  const exp = q.get('exp') ?? '';
  const sig = q.get('sig') ?? '';
  const gone = () => notFound('upload URL not found (expired or already used: ask for a new one)');
  if (!m || !sig || !/^\d+$/.test(exp) || !verifySignature(ctx, uploadParts(m[1]!, exp), sig, 'upload')) throw gone();
  if (Number(exp) < ctx.clock.now().getTime()) throw gone();
  const key = m[1]!;
  const row = await ctx.store.read((tx) => fonts.openUpload(tx, ctx, key));
  const format = fonts.checkFontBytes(row, bytes);
  const sha = createHash('sha256').update(bytes).digest('hex');
  await writeBlob(ctx, sha, bytes);
  await ctx.store.write((tx) => {
    const now = fonts.openUpload(tx, ctx, key); // not used meanwhile
    tx.put(StorageUploads, { ...now, sha, format, size: bytes.length, uploadedAt: ctx.clock.now().toISOString() });
  });
  return { key, format };
}

/** A face's bytes and type (`/fonts/<fontId>/<weight>` and a site's `~/fonts/...`); undefined when there is none. */
export async function fontFile(ctx: Context, fontId: string, weight: string, organization?: string): Promise<{ bytes: Buffer; type: string } | undefined> {
  if (!/^[A-Za-z0-9]{1,64}$/.test(fontId) || !/^\d{1,4}$/.test(weight)) return undefined;
  const face = await ctx.store.read((tx) => {
    const f = tx.get(CustomFonts, fontId);
    if (!f || (organization && f.organization !== organization)) return undefined;
    return f.faces.find((x) => x.weight === Number(weight));
  });
  const bytes = face && (await readBlob(ctx, face.sha));
  return bytes ? { bytes, type: fonts.FONT_TYPES[face.format] } : undefined;
}

export const listCustomFonts = defineOperation('listCustomFonts', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { org, member } = fonts.fontMember(tx, caller, path.organizationId, 'read', 'listing fonts');
    const all = tx.find(CustomFonts, 'organization', org.id).sort((a, b) => a.family.localeCompare(b.family) || a.id.localeCompare(b.id));
    return { status: 200, body: paginate(all, { limit: 1000 }, (f) => fonts.presentFont(ctx, f, member)) };
  }),
);

export const createCustomFont = defineOperation('createCustomFont', async ({ ctx, caller, path, body }) => {
  const { font, member } = await ctx.store.write((tx) => {
    const { org, member } = fonts.fontMember(tx, caller, path.organizationId, 'admin', 'adding a font');
    return { font: fonts.createFont(tx, ctx, org, body), member };
  });
  return {
    status: 201,
    headers: { Location: apiUrl(ctx, `/orgs/${path.organizationId}/fonts/${font.id}`) },
    body: fonts.presentFont(ctx, font, member),
  };
});

export const getCustomFont = defineOperation('getCustomFont', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { org, member } = fonts.fontMember(tx, caller, path.organizationId, 'read', 'reading a font');
    return { status: 200, body: fonts.presentFont(ctx, fonts.fontOf(tx, org, path.fontId), member) };
  }),
);

export const updateCustomFont = defineOperation('updateCustomFont', async ({ ctx, caller, path, body }) => {
  const { font, member } = await ctx.store.write((tx) => {
    const { org, member } = fonts.fontMember(tx, caller, path.organizationId, 'admin', 'changing a font');
    return { font: fonts.updateFont(tx, ctx, org, path.fontId, body), member };
  });
  return { status: 201, body: fonts.presentFont(ctx, font, member) };
});

/** 205 deleted, 204 when there was no such font (the contract's words, as every delete here). */
export const deleteCustomFont = defineOperation('deleteCustomFont', async ({ ctx, caller, path }) => {
  const deleted = await ctx.store.write((tx) => {
    const { org } = fonts.fontMember(tx, caller, path.organizationId, 'admin', 'deleting a font');
    const f = tx.get(CustomFonts, path.fontId);
    if (!f || f.organization !== org.id) return false;
    tx.delete(CustomFonts, f.id);
    for (const face of f.faces) if (tx.get(StorageUploads, face.storageKey)) tx.delete(StorageUploads, face.storageKey);
    return true;
  });
  return { status: deleted ? 205 : 204 };
});

/** Thrown by the upload route for a method other than PUT. */
export const uploadMethodError = (method: string | undefined, pathname: string) =>
  Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on ${pathname} (allowed: PUT)`), { allow: ['PUT'] });
