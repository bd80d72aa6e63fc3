/** A font file's format, read from its first bytes. */
export type FontFormat = 'woff2' | 'woff' | 'truetype' | 'opentype';

/**
 * A font file's format by its magic number (WOFF2, WOFF, TrueType, OpenType/CFF), or undefined:
 * an upload of kind `customization_font` must be one (src/content/storage.ts), and a custom font's
 * faces are served with the type it says (docs/manual/site-delivery.md#custom-fonts).
 */
export function fontFormat(b: Uint8Array): FontFormat | undefined {
  if (b.length < 12) return undefined;
  const tag = String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!);
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'OTTO') return 'opentype';
  if ((b[0] === 0 && b[1] === 1 && b[2] === 0 && b[3] === 0) || tag === 'true') return 'truetype';
  return undefined;
}
