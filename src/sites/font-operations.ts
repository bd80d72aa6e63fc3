import { readBlob } from '../content/blobs.js';
import { forgetUpload, uploadedFile } from '../content/storage.js';
import { invalid } from '../kernel/errors.js';
import type { OrganizationRecord } from '../organizations/model.js';
import type { ReadTx } from '../store/port.js';
import type { Context } from '../kernel/context.js';
import { apiUrl } from '../kernel/context.js';
import { defineOperation } from '../kernel/operation.js';
import { paginate } from '../kernel/pagination.js';
import * as fonts from './fonts.js';

/** A face from its storage key: a font uploaded to this organization (src/content/storage.ts checked its bytes). */
const facesOf =
  (tx: ReadTx, org: OrganizationRecord): fonts.FaceOf =>
  (f, i) => {
    const where = `fontFaces[${i}].storageKey`;
    const up = uploadedFile(tx, org.id, f.storageKey, 'customization_font', where);
    if (!up) throw invalid(`${where}: not a storage key (storage/<organization>/<id>, from generateStorageUploadURL)`);
    if (!up.sha || !up.format) throw invalid(`${where}: the file was never uploaded to its URL`);
    return { weight: f.weight, sha: up.sha, format: up.format, size: up.size, storageKey: f.storageKey };
  };
import { CustomFonts } from './tables.js';

// Custom fonts (docs/manual/site-delivery.md#custom-fonts): their files come through the content area's upload
// URLs (src/content/storage.ts) and are read from its blobs; the rules are in fonts.ts.

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
    return { font: fonts.createFont(tx, ctx, org, body, facesOf(tx, org)), member };
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
    return { font: fonts.updateFont(tx, ctx, org, path.fontId, body, facesOf(tx, org)), member };
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
    for (const face of f.faces) forgetUpload(tx, face.storageKey);
    return true;
  });
  return { status: deleted ? 205 : 204 };
});
