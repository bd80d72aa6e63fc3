import { makeResolver } from '../content/link-refs.js';
import type { FileEntry, PageNode } from '../content/model.js';
import { REFERENCE_LINE } from '../urls/site/api-load.js';
import { apiMarkdown } from './api/render.js';
import { inlineSpec } from '../urls/site/api-load.js';
import { markdownWithOperations, resolveBlocks } from './api/inline.js';
import { fileDownloadUrl } from '../content/downloads.js';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { markdownOf } from '../content/revisions.js';
import { expandIncludes } from '../content/reusable.js';
import type { Located } from '../content/tree.js';
import type { Context } from '../kernel/context.js';
import type { ReadTx } from '../store/port.js';
import { pageVisible, type PageIndexed } from '../urls/site/pages.js';
import type { RenderOptions } from './render/markdown.js';
import { pageUrl } from './render/page.js';
import type { SpaceEntry } from '../urls/site/site.js';
import type { Visitor } from '../urls/site/visitor.js';

// What a page's rendering reads from the store (inside one read), and how its links resolve:
// a page of the space to its address on this site (a page closed to the visitor counts as
// missing), a file of the space to its signed download URL, anything broken marked as such.

/**
 * A page's markdown as the site publishes it (`.md`, llms-full.txt): a page generated from an
 * OpenAPI spec is written from the spec; an API reference page is its text and the spec's overview.
 */
export function publishedMarkdown(tx: ReadTx, space: { id: string; organization: string }, ix: PageIndexed, node: PageNode): string {
  const spaceId = space.id;
  const api = ix.api?.get(node.id);
  if (!api) {
    const body = bodyOf(tx, spaceId, ix, node);
    // Inline operation blocks (api/inline.ts): each found operation as markdown, a missing one left out.
    if (!body.includes('openapi-operation')) return body;
    return markdownWithOperations(
      body,
      resolveBlocks(body, (slug) => inlineSpec(tx, space.organization, slug)),
    );
  }
  if (api.kind !== 'root') return apiMarkdown(api);
  return `${bodyOf(tx, spaceId, ix, node).replace(REFERENCE_LINE, '').trim()}\n\n${apiMarkdown(api)}`;
}

/** A page's body with its reusable content included (docs/manual/reusable-content.md#publishing). */
function bodyOf(tx: ReadTx, spaceId: string, ix: PageIndexed, node: PageNode): string {
  return expandIncludes(tx, (md) => fromMarkdown(md), ix.rev, markdownOf(tx, spaceId, node));
}

export interface PageSource {
  markdown: string;
  links: RenderOptions;
}

/** Call after `ensureDownloadSecret(ctx)` (file URLs are signed). */
export function pageSource(tx: ReadTx, ctx: Context, entry: SpaceEntry, ix: PageIndexed, l: Located, visitor: Visitor, externalBlank = false): PageSource {
  const files: readonly FileEntry[] = ix.rev.files ?? [];
  const resolver = makeResolver({ locate: (id) => ix.byId.get(id), idAt: (path) => ix.byPath.get(path)?.node.id }, files, ctx.baseUrl);
  const fileUrl = (id: string) => {
    const f = files.find((x) => x.id === id);
    return f && fileDownloadUrl(ctx, entry.space.id, f);
  };
  const target = (url: string) => {
    try {
      return resolver.resolve(url, l.node.id);
    } catch {
      return { kind: 'missing-page' as const, ref: url }; // a malformed URI (bad % escape)
    }
  };
  return {
    markdown: bodyOf(tx, entry.space.id, ix, l.node),
    links: {
      externalBlank,
      link(url) {
        const t = target(url);
        if (t.kind === 'page') {
          const to = ix.byId.get(t.page);
          if (!to || !pageVisible(ix, to, visitor)) return { broken: true };
          return { href: pageUrl(entry, to.path) + (t.anchor ? `#${t.anchor}` : '') };
        }
        if (t.kind === 'file') {
          const u = fileUrl(t.file);
          return u ? { href: u } : { broken: true };
        }
        if (t.kind === 'missing-page' || t.kind === 'missing-file') return { broken: true };
        return undefined;
      },
      image(url) {
        const t = target(url);
        return t.kind === 'file' ? fileUrl(t.file) : undefined;
      },
    },
  };
}
