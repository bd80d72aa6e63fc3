import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { fontFormat } from '../../src/kernel/font-format.js';
import { MAX_BYTES } from '../../src/content/storage.js';
import { FONT_TYPES } from '../../src/sites/fonts.js';
import type { Transport } from '../../src/transport/types.js';

const MAX_FONT_BYTES = MAX_BYTES.customization_font;

// `docs fonts create|update --face WEIGHT=FILE`: each file checked here (a font by its bytes, at
// most 5 MiB: exit 2 naming the flag, nothing sent), then uploaded to a signed URL
// (generateStorageUploadURL) and named by its storage key. docs/manual/site-delivery.md#custom-fonts

export const faceFlag = (required: boolean) =>
  Flags.string({
    description: required
      ? 'A face: WEIGHT=FILE (a .woff2, .woff, .ttf or .otf file; repeatable; weight 400 is required)'
      : 'A face to add or replace: WEIGHT=FILE; WEIGHT=none removes that weight (repeatable)',
    multiple: true,
    required,
  });

interface Face {
  weight: number;
  file?: { name: string; bytes: Buffer; type: string };
}

/** The --face values read and checked, before anything is sent. */
export function readFaces(values: string[] = []): Face[] {
  return values.map((v) => {
    const m = /^(\d{1,4})=(.+)$/.exec(v);
    const weight = m ? Number(m[1]) : Number.NaN;
    if (!m || weight < 1 || weight > 1000) throw new DocsError('invalid', `--face: WEIGHT=FILE with a weight from 1 to 1000, got ${JSON.stringify(v)}`);
    if (m[2] === 'none') return { weight };
    const file = m[2]!;
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile()) throw new DocsError('invalid', `--face: ${file} is not a file`);
    if (st.size > MAX_FONT_BYTES) throw new DocsError('invalid', `--face: ${file} is larger than ${MAX_FONT_BYTES} bytes`);
    const bytes = readFileSync(file);
    const format = fontFormat(bytes);
    if (!format) throw new DocsError('invalid', `--face: ${file} is not a font (expected WOFF2, WOFF, TrueType or OpenType bytes)`);
    return { weight, file: { name: basename(file), bytes, type: FONT_TYPES[format] } };
  });
}

/** Uploads each face's file; the faces as the API takes them (a removed weight has a null key). */
export async function uploadFaces(transport: Transport, organizationId: string, faces: Face[]) {
  const out: { weight: number; storageKey: string | null }[] = [];
  for (const f of faces) {
    if (!f.file) {
      out.push({ weight: f.weight, storageKey: null });
      continue;
    }
    const slot = (
      await transport.call('generateStorageUploadURL', {
        path: { organizationId },
        body: { kind: 'customization_font', file: { name: f.file.name, type: f.file.type, size: f.file.bytes.length } },
      })
    ).body as { url: string; key: string };
    await transport.upload(slot.url, f.file.bytes);
    out.push({ weight: f.weight, storageKey: slot.key });
  }
  return out;
}
