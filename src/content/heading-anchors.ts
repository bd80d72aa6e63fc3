// The anchors a page's headings answer to, for checking `page.md#anchor` links before a push.
// Two spellings are accepted: this server's (the published site and search, lowercase ASCII
// words joined by hyphens: src/published/render/markdown.ts) and GitHub's (letters, digits,
// spaces to hyphens), since a docs folder is also read on GitHub. A second heading of the same
// text gets `-1`, `-2`, ... in both.

/** This server's anchor of a heading text (published pages, search results). */
export const siteAnchor = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** GitHub's anchor of a heading text. */
const githubAnchor = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');

const textOf = (n: any): string => (typeof n.value === 'string' ? n.value : (n.children ?? []).map(textOf).join(''));

/** Every anchor the headings of a parsed page (mdast) answer to. */
export function headingAnchors(tree: unknown): Set<string> {
  const out = new Set<string>();
  const seen = [new Map<string, number>(), new Map<string, number>()];
  const visit = (n: any) => {
    if (n.type === 'heading') {
      const text = textOf(n);
      [siteAnchor(text) || 'section', githubAnchor(text)].forEach((base, i) => {
        const k = seen[i]!.get(base) ?? 0;
        seen[i]!.set(base, k + 1);
        out.add(k ? `${base}-${k}` : base);
      });
    }
    for (const c of n.children ?? []) visit(c);
  };
  visit(tree);
  return out;
}
