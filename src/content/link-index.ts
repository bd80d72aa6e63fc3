import { hash } from 'node:crypto';
import { extractLinks, isRewritable, type Parse } from './link-refs.js';

// A page body's link index: where its links to pages and files (and its relative links) are,
// as offsets into the stored markdown, computed once when the body is written (from the parse
// the write does anyway: canonicalLinksIndexed) and stored in the body's row, bound to the
// SHA-256 of the markdown it was computed from. `docs content push` uses it to put a page's
// links in the folder's relative form without parsing the page (commands/_lib/content-plan.ts):
// comparing a folder with a space then parses only the pages that differ.
//
// Never trusted blindly: an index is used only when its hash is the SHA-256 of the markdown
// read with it and its offsets are well formed (ascending, inside the text, each a link URL a
// folder may rewrite); otherwise (a body written before the index existed, by a merge or a
// translation, or a row changed behind the store's back) it is recomputed from a parse.

export interface LinkIndex {
  /** SHA-256 (hex) of the markdown the offsets were computed from. */
  sha: string;
  /** [start, end, start, end, ...]: the URL text of each link (isRewritable), in order. */
  spans: number[];
}

// crypto.hash: one call, no Hash object (~6x quicker than createHash for a page's body; a push hashes every page).
export const sha256hex = (text: string) => hash('sha256', text, 'hex');

// The SHA-256 of a stored row's markdown, computed once per row object: rows are the store's
// frozen objects (immutable while loaded), so checking that one hashes to its address need not
// hash it again on each read of it (a pull asks content-index and push-digest, a push the digest
// twice); a row read anew from the disk is a new object, hashed again.
const rowShas = new WeakMap<object, string>();
export function rowSha(row: { readonly markdown: string }): string {
  let sha = rowShas.get(row);
  if (sha === undefined) {
    sha = sha256hex(row.markdown);
    if (Object.isFrozen(row)) rowShas.set(row, sha);
  }
  return sha;
}

/** The offsets of a body's rewritable links, from a parse (what canonicalLinksIndexed stores). */
export function spansOf(parse: Parse, markdown: string): number[] {
  const out: number[] = [];
  let last = -1;
  for (const l of extractLinks(parse, markdown).sort((a, b) => (a.start ?? 0) - (b.start ?? 0))) {
    if (l.start === undefined || l.start < last || !isRewritable(l.url)) continue;
    out.push(l.start, l.end!);
    last = l.end!;
  }
  return out;
}

/** Whether `spans` are offsets this body could have: pairs, ascending, inside it, each a rewritable URL. */
export function wellFormed(markdown: string, spans: unknown): spans is number[] {
  if (!Array.isArray(spans) || spans.length % 2) return false;
  let last = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const s = spans[i];
    const e = spans[i + 1];
    if (!Number.isInteger(s) || !Number.isInteger(e) || s < last || e <= s || e > markdown.length) return false;
    const url = markdown.slice(s, e);
    if (!isRewritable(url) || /\s/.test(url)) return false;
    last = e;
  }
  return true;
}

/** The index's offsets when it belongs to this markdown (its hash checked), else undefined. */
export function trustedSpans(markdown: string, index: unknown, sha = sha256hex(markdown)): number[] | undefined {
  if (!index || typeof index !== 'object') return undefined;
  const { sha: bound, spans } = index as Partial<LinkIndex>;
  if (bound !== sha) return undefined;
  return wellFormed(markdown, spans) ? spans : undefined;
}

// Indexes recomputed on read, by the SHA-256 of the body (content addressed: never stale).
const recomputed = new Map<string, number[]>();
const RECOMPUTED_MAX = 20_000;

/** The body's index: the stored one when it checks out, else recomputed (and remembered). */
export function linkIndexOf(parse: Parse, markdown: string, stored: unknown): LinkIndex {
  const sha = sha256hex(markdown);
  const trusted = trustedSpans(markdown, stored, sha);
  if (trusted) return { sha, spans: trusted };
  let spans = recomputed.get(sha);
  if (!spans) {
    spans = spansOf(parse, markdown);
    if (recomputed.size >= RECOMPUTED_MAX) recomputed.clear();
    recomputed.set(sha, spans);
  }
  return { sha, spans };
}
