/**
 * A URL-safe slug from a title: accents dropped, lowercase ASCII words joined by hyphens, cut to
 * `max` characters (never ending in a hyphen), `fallback` when nothing is left. Page slugs and
 * site paths both use it.
 */
export function slugify(title: string, max: number, fallback: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return s || fallback;
}
