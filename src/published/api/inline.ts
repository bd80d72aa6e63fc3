import { randomBytes } from 'node:crypto';
import { splitOperations, type OperationRef } from '../../documents/openapi-blocks.js';
import { slugify } from '../../kernel/slug.js';
import type { CodeThemes } from '../render/highlight.js';
import { esc } from '../render/html.js';
import { renderMarkdown, type Heading, type RenderOptions } from '../render/markdown.js';
import type { ApiPage, InlineSpec } from '../../urls/site/api-load.js';
import { operationBody, operationMarkdown, partBody } from './render.js';
import type { ApiOperation, ApiSpec } from '../../urls/site/api-spec.js';

// An `openapi-operation` block inside an ordinary page (docs/manual/api-reference.md#one-operation-inside-a-page):
// the operation drawn in place with the reference's own renderer (api/render.ts: method and path,
// parameters, body, responses, code samples, Test it). A block whose spec or operation does not
// exist draws a visible notice in a preview (for the people editing) and nothing on a published
// site. The page's CSP lets "Test it" connect to the servers of the specs its blocks draw.

/** A block as found: its operation in its spec, or why it cannot be drawn. */
export type Resolved = { ref: OperationRef; spec: ApiSpec; op: ApiOperation } | { ref: OperationRef; problem: string };

const PROBLEMS: Record<Exclude<InlineSpec, { spec: ApiSpec }>['problem'], string> = {
  'no-spec': 'the organization has no OpenAPI spec of that slug',
  'no-version': 'the spec has no processed version yet',
  unreadable: 'the spec could not be read',
  'not-loaded': 'the spec is not loaded',
};

/** The block's operation in the spec found for it (hidden operations are not there). */
export function resolveBlock(ref: OperationRef, found: InlineSpec): Resolved {
  if (!('spec' in found)) return { ref, problem: PROBLEMS[found.problem] };
  const op = found.spec.ops.find((o) => o.method === ref.method && o.path === ref.path);
  return op ? { ref, spec: found.spec, op } : { ref, problem: `the spec has no operation ${ref.method.toUpperCase()} ${ref.path}` };
}

/** The blocks of a page's markdown, resolved by `find` (a spec's slug to what it is now). */
export function resolveBlocks(markdown: string, find: (slug: string) => InlineSpec): Resolved[] {
  const bySlug = new Map<string, InlineSpec>();
  return splitOperations(markdown).flatMap((p) => {
    if (!('ref' in p)) return [];
    let found = bySlug.get(p.ref.spec);
    if (!found) bySlug.set(p.ref.spec, (found = find(p.ref.spec)));
    return [resolveBlock(p.ref, found)];
  });
}

/** The origins "Test it" of these blocks may send to (for the page's CSP `connect-src`). */
export const blockOrigins = (blocks: Resolved[]) => [...new Set(blocks.flatMap((b) => ('op' in b ? b.spec.origins : [])))];

const pageOf = (b: { spec: ApiSpec; op: ApiOperation; ref: OperationRef }): ApiPage => ({ kind: 'op', spec: b.spec, op: b.op, slug: b.ref.spec, version: '' });

const notice = (b: { ref: OperationRef; problem: string }) =>
  `<p class="api-missing" role="note"><strong>OpenAPI operation not shown:</strong> <code>${esc(`${b.ref.method.toUpperCase()} ${b.ref.path}`)}</code> of spec <code>${esc(b.ref.spec)}</code>: ${esc(b.problem)}.</p>`;

export interface InlineRendered {
  html: string;
  headings: Heading[];
  /** Whether the page drew an operation (it then needs the API stylesheet). */
  drew: boolean;
}

/**
 * A page's markdown rendered with its operation blocks drawn in place. `blocks` are the page's
 * blocks in order (resolveBlocks); `preview`: a missing one shows a notice, else nothing.
 */
export async function renderWithOperations(markdown: string, opts: RenderOptions, blocks: Resolved[], preview: boolean): Promise<InlineRendered> {
  const pieces = splitOperations(markdown);
  if (pieces.length === 1 && 'text' in pieces[0]!) return { ...(await renderMarkdown(markdown, opts)), drew: false };
  // Each block stands in the text as a heading no page can guess (it keeps its place among the
  // page's headings), replaced by the block's HTML after rendering.
  const nonce = `docsop${randomBytes(6).toString('hex')}`;
  let n = 0;
  const text = pieces.map((p) => ('text' in p ? p.text : `\n## ${nonce}x${n++}\n`)).join('\n');
  const { html, headings } = await renderMarkdown(text, opts);
  const ids = new Set(headings.map((h) => h.id));
  const drawn: { html: string; headings: Heading[] }[] = await Promise.all(
    blocks.map(async (b, i) => {
      if (!('op' in b)) return { html: preview ? notice(b) : '', headings: [] };
      let id = `op-${slugify(`${b.op.method} ${b.op.path}`, 80, 'operation')}`;
      for (let k = 2; ids.has(id); k++) id = `op-${slugify(`${b.op.method} ${b.op.path}`, 80, 'operation')}-${k}`;
      ids.add(id);
      return operationBody(pageOf(b), opts.codeThemes, { id, part: `o${i}` });
    }),
  );
  const out = html.replace(new RegExp(`<h2 id="${nonce}x(\\d+)">${nonce}x\\d+</h2>`, 'g'), (_m, i) => drawn[Number(i)]?.html ?? '');
  const outline = headings.flatMap((h) => {
    const m = h.id.startsWith(nonce) ? /x(\d+)$/.exec(h.id) : null;
    return m ? (drawn[Number(m[1])]?.headings ?? []) : [h];
  });
  return { html: out, headings: outline, drew: blocks.some((b) => 'op' in b) };
}

/** `?part=o<i>/...` of a page with blocks: that part of block i's operation (undefined: nowhere). */
export async function inlinePart(blocks: Resolved[], part: string, codeThemes?: CodeThemes) {
  const m = /^o(\d+)\/(.+)$/s.exec(part);
  const b = m ? blocks[Number(m[1])] : undefined;
  if (!b || !('op' in b)) return undefined;
  return partBody(pageOf(b), m![2]!, codeThemes);
}

/** A page's markdown with its blocks as markdown (`.md`, llms-full.txt): each found operation as its reference page's `.md`. */
export function markdownWithOperations(markdown: string, blocks: Resolved[]): string {
  let i = 0;
  return splitOperations(markdown)
    .map((p) => {
      if ('text' in p) return p.text;
      const b = blocks[i++];
      if (!b || !('op' in b)) return '';
      return `## ${b.op.title}\n\n${operationMarkdown(pageOf(b)).trim()}\n`;
    })
    .join('\n');
}
