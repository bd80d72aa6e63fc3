import type { Transport } from '../../src/transport/types.js';
import { outputOptions } from './render.js';

// The semantic changes of a change request (`cr changes`) or of a revision (`revisions changes`):
// one printer for both answers (RevisionSemanticChanges).

const line = (c: any): string => {
  const what = c.page ? `${c.page.title}${c.page.path ? ` (${c.page.path})` : ''}` : `${c.file.name}`;
  const detail =
    c.type === 'page_moved'
      ? `: ${c.parent.before?.title ?? '(root)'} -> ${c.parent.after?.title ?? '(root)'}`
      : c.attributes
        ? `: ${Object.keys(c.attributes).join(', ')}`
        : '';
  return `${c.type.padEnd(12)} ${what}${detail}`;
};

const tsv = (c: any): string => {
  const detail =
    c.type === 'page_moved'
      ? `${c.parent.before?.title ?? '(root)'} -> ${c.parent.after?.title ?? '(root)'}`
      : c.attributes
        ? Object.keys(c.attributes).join(',')
        : '';
  return [c.type, c.page?.title ?? c.file?.name ?? '', c.page?.path ?? '', detail].join('\t');
};

/** The changes (`--limit`, or `--all`: the API answers the first `limit` and how many more; a second call asks for them all). */
export async function fetchChanges(transport: Transport, operationId: string, path: Record<string, string>, flags: { limit?: number; all?: boolean }) {
  const query = flags.limit !== undefined ? { limit: flags.limit } : {};
  let body = (await transport.call(operationId, { path, query })).body as any;
  if (flags.all && body.more) body = (await transport.call(operationId, { path, query: { limit: body.changes.length + body.more } })).body;
  return body;
}

/**
 * Through a pipe, as every list: tab-separated rows (type, title, path, what changed), the
 * "no changes" note and the "more" hint on stderr (stdout holds only the changes: a script counts lines).
 */
export function printChanges(log: (s: string) => void, body: any): void {
  const tty = outputOptions().tty;
  if (body.mergedFrom && tty) log(`Merged from change request #${body.mergedFrom.number}${body.mergedFrom.subject ? ` ${body.mergedFrom.subject}` : ''}`);
  for (const c of body.changes) log(tty ? line(c) : tsv(c));
  if (!body.changes.length) tty ? log('No changes.') : process.stderr.write('No changes.\n');
  if (body.more)
    process.stderr.write(`Showing ${body.changes.length} of ${body.changes.length + body.more}. More: --limit ${body.changes.length + body.more} (or --all)\n`);
}
