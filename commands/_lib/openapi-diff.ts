import type { Change, DiffResult } from '../../src/openapi/diff/classify.js';
import type { StoredReader } from '../../src/openapi/diff/load.js';
import type { Transport } from '../../src/transport/types.js';
import { organizationOf } from './org.js';

// Shared by `docs openapi diff` and `docs openapi put --fail-on-breaking / --dry-run`: reading a
// stored version through the transport, and the three outputs of a diff.

/** Reads stored versions in the organization of --org (resolved on first use only). */
export function storedReader(flags: { org?: string }, transport: () => Promise<Transport>): StoredReader {
  return async (slug, version) => {
    const t = await transport();
    const path = { organizationId: await organizationOf(flags, t), specSlug: slug };
    const r =
      version === 'latest'
        ? await t.call('getLatestOpenAPISpecVersionContent', { path })
        : await t.call('getOpenAPISpecVersionContentById', { path: { ...path, versionId: version } });
    const body = r.body as { filesystem?: Record<string, unknown>; url?: string };
    return { files: body.filesystem ?? {}, url: body.url };
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summaryLine(d: DiffResult): string {
  const n = d.changes.length;
  if (!n) return 'No changes.';
  return `${plural(n, 'change')}: ${d.summary.breaking} breaking, ${plural(d.summary.warning, 'warning')}, ${d.summary.info} non-breaking.`;
}

/** `GET /pets  response 200 application/json  items[].name: property removed  (used by ...)` */
export function changeLine(c: Change): string {
  const subject = c.operation ?? c.where ?? '';
  const where = c.operation && c.where ? `  ${c.where}` : '';
  const field = c.field ? `  ${c.field}:` : ':';
  const users = c.operations
    ? `  (${c.operations.length > 3 ? `${c.operations.slice(0, 3).join(', ')} +${c.operations.length - 3}` : c.operations.join(', ') || 'no operation'})`
    : '';
  return `${subject}${where}${field} ${c.message}${users}`;
}

/** The text table: one line per change, breaking first. */
export function textLines(d: DiffResult): string[] {
  return [summaryLine(d), ...d.changes.map((c) => `${(c.level === 'info' ? 'ok' : c.level).padEnd(8)}  ${changeLine(c)}`)];
}

// GitHub workflow commands: data escapes %, CR, LF; properties also : and ,.
const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
const COMMAND = { breaking: 'error', warning: 'warning', info: 'notice' } as const;
const TITLE = { breaking: 'Breaking API change', warning: 'API change to check', info: 'API change' } as const;

/** `::error file=openapi.yaml,title=Breaking API change::GET /pets ...`, one per change. */
export function githubLines(d: DiffResult, file?: string): string[] {
  return d.changes.map(
    (c) => `::${COMMAND[c.level]} ${file ? `file=${escProp(file)},` : ''}title=${escProp(`${TITLE[c.level]} (${c.id})`)}::${esc(changeLine(c))}`,
  );
}
