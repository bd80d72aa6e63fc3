import { slugify as slugifyText } from '../kernel/slug.js';
import type { ReadTx } from '../store/port.js';
import type { Parse } from './link-refs.js';
import { contentRowId, type ContentRevision, type ReusableEntry } from './model.js';
import { PageContents } from './tables.js';

// Reusable content (docs/manual/reusable-content.md): a block defined once in a space's
// revision and included in pages. In a page body an inclusion is a paragraph of its own holding
// GitBook's Git Sync tag, `{% include "<target>" %}`; stored, the target is `/reusable/<id>`
// (like links are `/pages/<id>`), so renaming the block keeps every inclusion. Written, the
// target may also be the block's file in a Git Sync folder (`../.gitbook/includes/<name>.md`,
// `<name>` the slug of its title), a batch `ref`, or its id. Inclusions are found with the
// markdown parser: a tag inside a code block or a sentence is text, not an inclusion.

const TAG = /^\{%\s*include\s+"([^"\n]+)"\s*%\}$/;

export interface Include {
  target: string;
  /** Offsets of the whole paragraph holding the tag. */
  start: number;
  end: number;
}

/** The inclusions of a body, in order. */
export function findIncludes(parse: Parse, markdown: string): Include[] {
  if (!markdown.includes('{%')) return [];
  const out: Include[] = [];
  const visit = (n: any) => {
    if (n.type === 'paragraph' && n.position && n.children?.length === 1 && n.children[0].type === 'text') {
      const m = TAG.exec(String(n.children[0].value).trim());
      if (m) out.push({ target: m[1]!, start: n.position.start.offset, end: n.position.end.offset });
      return;
    }
    for (const c of n.children ?? []) visit(c);
  };
  visit(parse(markdown));
  return out;
}

/** The stored tag for a block. */
export const includeTag = (id: string) => `{% include "/reusable/${id}" %}`;

/** The name of a block's file in a Git Sync folder (`.gitbook/includes/<name>.md`). */
export const includeName = (title: string) => slugifyText(title, 100, 'reusable-content');

/**
 * What an include target names: `/reusable/<id>`, an id, a batch ref, or a file path ending in
 * `.gitbook/includes/<name>.md` (or `<name>.md`), matched by the slug of the block's title.
 */
export function resolveInclude(target: string, blocks: readonly ReusableEntry[], refs: ReadonlyMap<string, string> = new Map()): string | undefined {
  const byId = (id: string) => blocks.find((b) => b.id === id)?.id;
  if (target.startsWith('/reusable/')) return byId(target.slice('/reusable/'.length));
  if (refs.has(target)) return refs.get(target);
  const file = /(?:^|\/)([^/]+)\.md$/i.exec(target);
  if (file) {
    const name = file[1]!;
    return refs.get(name) ?? blocks.find((b) => includeName(b.title) === name)?.id;
  }
  return byId(target);
}

/**
 * The body with every inclusion's target in its stored form; `unresolved`: targets naming no
 * block (the caller refuses them).
 */
export function canonicalIncludes(parse: Parse, markdown: string, resolve: (target: string) => string | undefined) {
  const found = findIncludes(parse, markdown);
  const unresolved: string[] = [];
  let out = '';
  let from = 0;
  for (const inc of found) {
    const id = resolve(inc.target);
    if (!id) {
      unresolved.push(inc.target);
      continue;
    }
    out += markdown.slice(from, inc.start) + includeTag(id);
    from = inc.end;
  }
  return { markdown: out + markdown.slice(from), unresolved };
}

/**
 * The body with every inclusion replaced by `replace(id)` (a block's markdown, or a Git Sync
 * tag naming its file); an inclusion of a block that is gone becomes `missing(target)`.
 */
export function rewriteIncludes(parse: Parse, markdown: string, replace: (id: string) => string | undefined, missing: (target: string) => string = () => '') {
  let out = '';
  let from = 0;
  for (const inc of findIncludes(parse, markdown)) {
    const id = inc.target.startsWith('/reusable/') ? inc.target.slice('/reusable/'.length) : inc.target;
    const text = replace(id) ?? missing(inc.target);
    out += markdown.slice(from, inc.start) + text.replace(/\n+$/, '');
    from = inc.end;
  }
  return out + markdown.slice(from);
}

export const reusableOf = (rev: ContentRevision): readonly ReusableEntry[] => rev.reusable ?? [];

/** A block's markdown body. */
export function reusableMarkdown(tx: ReadTx, space: string, entry: ReusableEntry): string {
  return tx.get(PageContents, contentRowId(space, entry.content))?.markdown ?? '';
}

/** The body with its inclusions expanded (blocks hold no inclusions: one level). */
export function expandIncludes(tx: ReadTx, parse: Parse, rev: ContentRevision, markdown: string): string {
  const blocks = reusableOf(rev);
  if (!markdown.includes('{%')) return markdown;
  return rewriteIncludes(parse, markdown, (id) => {
    const b = blocks.find((x) => x.id === id);
    return b ? reusableMarkdown(tx, rev.space, b) : undefined;
  });
}
