// HTML built by hand for the site's frame: every value goes through `esc` (text) or `attr`
// (attribute values); only markup made by the markdown renderer is inserted as is.

const MAP: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => MAP[c]!);
export const attr = esc;

/** A URL safe to put in href/src: http(s), mailto, or a path; anything else (javascript:, data:) becomes '#'. */
export function safeUrl(u: unknown): string {
  const s = String(u ?? '').trim();
  if (/^(https?:|mailto:)/i.test(s) || (s.startsWith('/') && !s.startsWith('//')) || s.startsWith('#') || s.startsWith('?')) return s;
  return '#';
}

/** A CSS color value from a setting (hex only), or the fallback. */
export const color = (c: unknown, fallback: string) => (typeof c === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(c) ? c : fallback);
