import type { Schema } from '../contract/types.js';
import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { atLeast } from '../kernel/roles.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { CustomFontRecord, FontFormat, StorageUploadRecord } from './model.js';
import { CustomFonts, StorageUploads } from './tables.js';

// Custom fonts (docs/manual/site-delivery.md#custom-fonts): a font family with a file per weight, uploaded through a
// signed upload URL (generateStorageUploadURL), checked by its first bytes, kept as a blob like
// any uploaded file, and served by this server to the published sites whose `styling.font` names
// it. The rules are here; the handlers that read and write bytes are in font-operations.ts.

/** The largest font file accepted (a full variable font is 0.5–2 MB). */
export const MAX_FONT_BYTES = 4 * 1024 * 1024;
/** How long an upload URL stays valid. */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;
export const FAMILY = { min: 1, max: 50 };
/** Font families: letters, digits, spaces and - _ (they end up in CSS). */
const FAMILY_CHARS = /^[\p{L}\p{N} _-]+$/u;

/** A font file's format by its magic number (WOFF2, WOFF, TrueType, OpenType/CFF), or undefined. */
export function fontFormat(b: Uint8Array): FontFormat | undefined {
  if (b.length < 12) return undefined;
  const tag = String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!);
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'OTTO') return 'opentype';
  if ((b[0] === 0 && b[1] === 1 && b[2] === 0 && b[3] === 0) || tag === 'true') return 'truetype';
  return undefined;
}

export const FONT_TYPES: Record<FontFormat, string> = { woff2: 'font/woff2', woff: 'font/woff', truetype: 'font/ttf', opentype: 'font/otf' };

/** The caller's membership with `role` checked (403 naming the action); 404 for non-members. */
export function fontMember(tx: ReadTx, caller: Caller, organizationId: string, role: 'read' | 'admin', action: string) {
  const m = membershipOf(tx, organizationId, caller);
  requireOrgRole(m.member, role, action);
  return m;
}

export function newUpload(
  tx: WriteTx,
  ctx: Context,
  org: OrganizationRecord,
  caller: Caller,
  body: { file: { name: string; type: string; size: number }; kind: string },
): StorageUploadRecord {
  if (body.kind !== 'customization_font')
    throw invalid(
      `kind: this server takes uploads of kind customization_font only (imports upload their archive with the content: docs imports start --archive)`,
    );
  const { name, type, size } = body.file;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name) || !name.trim()) throw invalid('file.name: a file name, without control characters');
  if (!/^[\x20-\x7e]*$/.test(type)) throw invalid('file.type: printable ASCII (no control characters)');
  if (!Number.isInteger(size) || size < 12 || size > MAX_FONT_BYTES) throw invalid(`file.size: a whole number of bytes from 12 to ${MAX_FONT_BYTES}`);
  const now = ctx.clock.now();
  return tx.put(StorageUploads, {
    id: `${org.id}/${newId()}`,
    organization: org.id,
    kind: 'customization_font',
    name: name.slice(0, 255),
    type,
    size,
    createdBy: caller.userId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + UPLOAD_TTL_MS).toISOString(),
  });
}

/** The upload slot `key` names, before its bytes came (404 when unknown, expired or used). */
export function openUpload(tx: ReadTx, ctx: Context, key: string): StorageUploadRecord {
  const row = tx.get(StorageUploads, key);
  if (!row || row.sha || row.expiresAt < ctx.clock.now().toISOString()) throw notFound('upload URL not found (expired or already used: ask for a new one)');
  return row;
}

/** The checked bytes recorded on their slot. 400 (nothing kept) when they are not a font or too big. */
export function checkFontBytes(row: StorageUploadRecord, bytes: Uint8Array): FontFormat {
  if (bytes.length > row.size) throw invalid(`the upload is ${bytes.length} bytes, more than the ${row.size} announced for it`);
  const format = fontFormat(bytes);
  if (!format) throw invalid('the file is not a font (expected WOFF2, WOFF, TrueType or OpenType bytes)');
  return format;
}

type FaceInput = { weight: number; storageKey: string | null };

/** A face's file from its storage key: an upload of this organization whose bytes came. */
function faceFrom(tx: ReadTx, org: OrganizationRecord, f: FaceInput & { storageKey: string }, i: number) {
  const up = tx.get(StorageUploads, f.storageKey);
  if (!up || up.organization !== org.id) throw invalid(`fontFaces[${i}].storageKey: no upload ${JSON.stringify(f.storageKey)} in this organization`);
  if (!up.sha || !up.format) throw invalid(`fontFaces[${i}].storageKey: the file was never uploaded to its URL`);
  return { weight: f.weight, sha: up.sha, format: up.format, size: up.size, storageKey: up.id };
}

function family(raw: string): string {
  const t = String(raw).trim();
  if (t.length < FAMILY.min || t.length > FAMILY.max || !FAMILY_CHARS.test(t))
    throw invalid(`fontFamily: ${FAMILY.min} to ${FAMILY.max} letters, digits, spaces, - or _ (got ${JSON.stringify(raw)})`);
  return t;
}

function checkFaces(faces: CustomFontRecord['faces']): CustomFontRecord['faces'] {
  const seen = new Set<number>();
  for (const f of faces) {
    if (seen.has(f.weight)) throw invalid(`fontFaces: weight ${f.weight} is given twice`);
    seen.add(f.weight);
  }
  if (!seen.has(400)) throw invalid('fontFaces: a face of weight 400 (regular) is required');
  return [...faces].sort((a, b) => a.weight - b.weight);
}

export function createFont(tx: WriteTx, ctx: Context, org: OrganizationRecord, body: { fontFamily: string; fontFaces: FaceInput[] }): CustomFontRecord {
  const faces = body.fontFaces.map((f, i) => {
    if (f.storageKey === null) throw invalid(`fontFaces[${i}].storageKey: required`);
    return faceFrom(tx, org, f as FaceInput & { storageKey: string }, i);
  });
  const now = ctx.clock.now().toISOString();
  return tx.put(CustomFonts, { id: newId(), organization: org.id, family: family(body.fontFamily), faces: checkFaces(faces), createdAt: now, updatedAt: now });
}

export function fontOf(tx: ReadTx, org: OrganizationRecord, fontId: string): CustomFontRecord {
  const f = tx.get(CustomFonts, fontId);
  if (!f || f.organization !== org.id) throw notFound(`font ${fontId} not found`);
  return f;
}

/** A face per weight given (a null storage key removes that weight); the family if given. */
export function updateFont(
  tx: WriteTx,
  ctx: Context,
  org: OrganizationRecord,
  fontId: string,
  body: { fontFamily?: string; fontFaces?: FaceInput[] },
): CustomFontRecord {
  const f = fontOf(tx, org, fontId);
  const faces = new Map(f.faces.map((x) => [x.weight, x]));
  for (const [i, x] of (body.fontFaces ?? []).entries()) {
    if (x.storageKey === null) faces.delete(x.weight);
    else faces.set(x.weight, faceFrom(tx, org, x as FaceInput & { storageKey: string }, i));
  }
  return tx.put(CustomFonts, {
    ...f,
    family: body.fontFamily === undefined ? f.family : family(body.fontFamily),
    faces: checkFaces([...faces.values()]),
    updatedAt: ctx.clock.now().toISOString(),
  });
}

/** Where a face's bytes are served (no token: fonts are public, like a published site). */
export const fontFileUrl = (ctx: Context, f: CustomFontRecord, weight: number) => `${ctx.baseUrl}/fonts/${f.id}/${weight}`;

export function presentFont(ctx: Context, f: CustomFontRecord, member: MemberRecord): Schema<'CustomizationFontDefinition'> {
  return {
    id: f.id,
    custom: true,
    fontFamily: f.family,
    fontFaces: f.faces.map((x) => ({
      weight: x.weight,
      // The contract's formats are woff2 and woff; a TrueType or OpenType file goes without one.
      sources: [{ url: fontFileUrl(ctx, f, x.weight), ...(x.format === 'woff2' || x.format === 'woff' ? { format: x.format } : {}) }],
    })),
    permissions: { edit: atLeast(member.role, 'admin') },
  };
}
