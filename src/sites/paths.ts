import { invalid } from '../kernel/errors.js';
import { PATH_MAX } from './model.js';
import { slugify as slugifyText } from '../kernel/slug.js';

// A path is one URL segment of a published address: letters, digits and - _ . (no slash, so
// a section path and a site-space path always join into an unambiguous URL).
const SEGMENT = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** A path given by the caller, checked; 400 naming the field and the rule. */
export function checkPath(value: string, field = 'path'): string {
  if (value.length < 1 || value.length > PATH_MAX || !SEGMENT.test(value)) {
    throw invalid(`${field}: must be 1 to ${PATH_MAX} letters, digits, '-', '_' or '.', starting and ending with a letter or digit`);
  }
  return value;
}

/** A path derived from a title (room left for a `-N` suffix, 'untitled' when nothing is left). */
export const slugify = (title: string) => slugifyText(title, PATH_MAX - 4, 'untitled');

/** `base`, or `base-2`, `base-3`... : the first one not in `taken`. */
export function uniquePath(base: string, taken: Iterable<string>): string {
  const set = new Set(taken);
  if (!set.has(base)) return base;
  for (let i = 2; ; i++) if (!set.has(`${base}-${i}`)) return `${base}-${i}`;
}
