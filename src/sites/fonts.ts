import type { Schema } from '../contract/types.js';
import type { Caller, Context } from '../kernel/context.js';
import { invalid, notFound } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { membershipOf, requireOrgRole } from '../organizations/service.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { atLeast } from '../kernel/roles.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { FontFormat } from '../kernel/font-format.js';
import type { CustomFontRecord } from './model.js';
import { CustomFonts } from './tables.js';

// Custom fonts (docs/manual/site-delivery.md#custom-fonts): a font family with a file per weight, uploaded through a
// signed upload URL (generateStorageUploadURL, src/content/storage.ts, which checks its first bytes), kept as a blob like
// any uploaded file, and served by this server to the published sites whose `styling.font` names
// it. The rules are here; the handlers that read and write bytes are in font-operations.ts.

export const FAMILY = { min: 1, max: 50 };
/** Font families: letters, digits, spaces and - _ (they end up in CSS). */
const FAMILY_CHARS = /^[\p{L}\p{N} _-]+$/u;

export const FONT_TYPES: Record<FontFormat, string> = { woff2: 'font/woff2', woff: 'font/woff', truetype: 'font/ttf', opentype: 'font/otf' };

/** The caller's membership with `role` checked (403 naming the action); 404 for non-members. */
export function fontMember(tx: ReadTx, caller: Caller, organizationId: string, role: 'read' | 'admin', action: string) {
  const m = membershipOf(tx, organizationId, caller);
  requireOrgRole(m.member, role, action);
  return m;
}

export type FaceInput = { weight: number; storageKey: string | null };

/** A face as stored: its weight, and the uploaded file its storage key names. */
export type Face = CustomFontRecord['faces'][number];
/**
 * The face a `fontFaces` entry names (its upload looked up by the caller: uploads belong to the
 * content area, above this one: src/sites/font-operations.ts), or a 400 naming `fontFaces[i]`.
 */
export type FaceOf = (f: FaceInput & { storageKey: string }, i: number) => Face;

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

export function createFont(
  tx: WriteTx,
  ctx: Context,
  org: OrganizationRecord,
  body: { fontFamily: string; fontFaces: FaceInput[] },
  faceFrom: FaceOf,
): CustomFontRecord {
  const faces = body.fontFaces.map((f, i) => {
    if (f.storageKey === null) throw invalid(`fontFaces[${i}].storageKey: required`);
    return faceFrom(f as FaceInput & { storageKey: string }, i);
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
  faceFrom: FaceOf,
): CustomFontRecord {
  const f = fontOf(tx, org, fontId);
  const faces = new Map(f.faces.map((x) => [x.weight, x]));
  for (const [i, x] of (body.fontFaces ?? []).entries()) {
    if (x.storageKey === null) faces.delete(x.weight);
    else faces.set(x.weight, faceFrom(x as FaceInput & { storageKey: string }, i));
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
