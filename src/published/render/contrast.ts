// WCAG 2 contrast, used to keep customization colors readable: a primary color that fails AA
// (4.5:1) against the page's background is darkened (light theme) or lightened (dark theme)
// for text, as GitBook does, rather than refused. Code token colors go through the same rule.

type RGB = [number, number, number];

function rgb(hex: string): RGB | undefined {
  let h = hex.replace(/^#/, '');
  if (h.length === 3 || h.length === 4) h = [...h.slice(0, 3)].map((c) => c + c).join('');
  if (h.length === 8) h = h.slice(0, 6); // alpha ignored: colors are drawn opaque
  if (!/^[0-9a-f]{6}$/i.test(h)) return undefined;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as RGB;
}

const hex = (c: RGB) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: RGB): number {
  const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const x = rgb(a);
  const y = rgb(b);
  if (!x || !y) return 1;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `fg`, or the nearest color toward black or white (whichever the background needs) that reads on `bg` at `ratio`. */
export function readable(fg: string, bg: string, ratio = 4.5): string {
  const f = rgb(fg);
  const b = rgb(bg);
  if (!f || !b) return fg;
  if (contrast(fg, bg) >= ratio) return hex(f);
  const toward: RGB = luminance(b) > 0.18 ? [0, 0, 0] : [255, 255, 255];
  for (let t = 0.05; t < 1; t += 0.05) {
    const c = f.map((v, i) => v + (toward[i]! - v) * t) as RGB;
    if (contrast(hex(c), bg) >= ratio) return hex(c);
  }
  return hex(toward);
}

/** Black or white, whichever reads better on `bg` (text on a primary-colored header or button). */
export const onColor = (bg: string) => (contrast('#ffffff', bg) >= contrast('#000000', bg) ? '#ffffff' : '#000000');
