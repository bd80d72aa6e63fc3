import { documentToMarkdown, markdownToDocument } from '../documents/markdown.js';
import { invalid } from '../kernel/errors.js';
import { BODY_MAX } from './model.js';

// A comment body arrives as one of the contract's Document forms: `{markdown}`, `{document}` (a
// JSON Document, turned into markdown, the stored form) or `{}`. An empty comment says nothing,
// so `{}` and blank markdown are refused.

export function bodyMarkdown(body: { markdown?: string; document?: { nodes?: unknown[] } }, field = 'body'): string {
  const markdown = (typeof body.markdown === 'string' ? body.markdown : body.document ? documentToMarkdown(body.document as { nodes?: any[] }) : '').trim();
  if (!markdown) throw invalid(`${field}.markdown: required, and must not be empty (a comment needs some text)`);
  if (markdown.length > BODY_MAX) throw invalid(`${field}.markdown: must be at most ${BODY_MAX} characters (got ${markdown.length})`);
  return markdown;
}

/**
 * Presented comments and replies carry `body: {markdown}`; with `format=document`, each body is
 * replaced by the Document built from its markdown (after the read: the parser loads lazily).
 */
export async function formatBodies<T extends { body: { markdown?: string; document?: unknown } }>(items: T[], format: string | undefined): Promise<T[]> {
  if (format !== 'document') return items;
  for (const item of items) item.body = { document: await markdownToDocument(item.body.markdown ?? '') };
  return items;
}
