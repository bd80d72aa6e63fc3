// Link pages (GitBook's `type: "link"` pages: a title in the table of contents that leads
// elsewhere, no document). What a link page may point at, said once for the server (insert_page /
// update_page with `type: "link"` and a `target`) and for `docs content push`, which reads them
// from SUMMARY.md entries whose link is a URL (docs/manual/docs-as-code.md#link-pages).

/** The schemes a link page may lead to: the web and mail. `javascript:`, `data:`, `file:`... are refused. */
export const LINK_SCHEMES = ['http:', 'https:', 'mailto:'] as const;
export const MAX_LINK_URL = 2048;

/** Why `url` cannot be a link page's target, or undefined when it can. */
export function linkUrlProblem(url: string): string | undefined {
  if (url.length > MAX_LINK_URL) return `at most ${MAX_LINK_URL} characters`;
  // Control characters and spaces would let a URL read differently to a browser than to this check.
  if (/[\u0000-\u0020\u007f]/.test(url)) return 'no spaces or control characters (escape them: %20)';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not an absolute URL (https://...)';
  }
  if (!(LINK_SCHEMES as readonly string[]).includes(u.protocol)) return `a ${u.protocol} URL; a link page leads to ${LINK_SCHEMES.join(', ')} URLs only`;
  if (u.username || u.password) return 'carries a user name or password; leave credentials out of links';
  if (u.protocol !== 'mailto:' && !u.hostname) return 'no host';
  return undefined;
}

/** A scheme at the start (`https:`, `mailto:`, `javascript:`): an entry meant as a URL, not a file. */
export const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url);

/**
 * A link page may also lead to a page of the same space (`{kind: "page", page}`) or to an anchor
 * in it (`{kind: "anchor", page, anchor}`): GitBook's Git Sync writes these as SUMMARY.md entries
 * `* [Buttons](inline.md#buttons)` over a file listed elsewhere as a page. An anchor is a heading's
 * id: 1 to 256 characters, no spaces, control characters or `#`.
 */
export const MAX_ANCHOR = 256;
export function anchorProblem(anchor: string): string | undefined {
  if (!anchor.length || anchor.length > MAX_ANCHOR) return `an anchor is 1 to ${MAX_ANCHOR} characters`;
  if (/[\u0000-\u0020\u007f#]/.test(anchor)) return 'an anchor has no spaces, control characters or #';
  return undefined;
}

/**
 * A SUMMARY.md destination with a fragment (`inline.md#buttons`, `inline.md#`): the file (still
 * %-escaped) and the anchor (decoded; empty: the page itself). Undefined without a `#`.
 */
export function splitFragment(url: string): { file: string; anchor: string } | undefined {
  const i = url.indexOf('#');
  if (i < 0) return undefined;
  let anchor = url.slice(i + 1);
  try {
    anchor = decodeURIComponent(anchor);
  } catch {}
  return { file: url.slice(0, i), anchor };
}
