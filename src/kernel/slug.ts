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

/**
 * An OpenAPI tag's slug within one spec, the same wherever a tag gets an address (the published
 * API reference, computed OpenAPI pages): the name slugified, then `-2`, `-3`... for a name whose
 * slug another tag of the spec took first. Adds it to `taken`.
 */
export function uniqueTagSlug(name: string, taken: Set<string>): string {
  let slug = slugify(name, 80, 'other');
  for (let n = 2; taken.has(slug); n++) slug = `${slugify(name, 76, 'other')}-${n}`;
  taken.add(slug);
  return slug;
}
