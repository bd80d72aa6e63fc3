import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from './base.js';
import type { Transport } from '../../src/transport/types.js';
import { colorEnabled, paint } from './color.js';
import { spin } from './operation-command.js';

// `docs cr merge` and `docs cr update`: one call whose answer is 200 either way; `result:
// conflicts` lists what clashed, printed one per line, and the command exits 5 (conflict) so a
// CI script stops there. With --json the API body is printed as it is, with the same exit code.

interface Answer {
  revision: string;
  result: string;
  conflicts?: { kind: string; title: string; path?: string; page?: string; file?: string; fields?: string[] }[];
}

type Change = { type: string; page?: { title: string; path?: string }; file?: { name: string } };

const EXIT_CONFLICT = new DocsError('conflict', '').exitCode;

/**
 * The CLI steps that resolve a conflict between a change request and its space, as lines for
 * stderr. Why this order: a merge (or update) conflicts where both sides changed the same lines of
 * a page; once the change request's page is the space's version, updating takes the space's
 * changes without a clash, and the edits are then redone on top of them. `dir`: the folder of
 * markdown pushed, when known.
 */
export function resolveSteps(spaceId: string, number: string | number, dir?: string): string[] {
  const d = dir ?? 'DIR';
  const cr = String(number).replace(/^#/, '');
  return [
    'To resolve it:',
    ...(dir ? [] : [`  0. DIR is your folder of markdown for it (or get one: docs content pull DIR --space ${spaceId} --change-request ${cr})`]),
    `  1. docs content pull ./space-now --space ${spaceId}   # the space as it is now`,
    `  2. in ${d}, make each conflicting page named above the same as in ./space-now, then:`,
    `     docs content push ${d} --space ${spaceId} --change-request ${cr}`,
    `  3. docs cr update ${spaceId} ${cr}   # takes in the space's changes: no clash is left`,
    `  4. docs content pull ${d} --space ${spaceId} --change-request ${cr} --force   # ${d} gets them too`,
    `  5. redo your edits of those pages in ${d}, then:`,
    `     docs content push ${d} --space ${spaceId} --change-request ${cr} --merge`,
  ];
}

/** Conflict kinds `docs cr resolve` settles in a folder (it sets the page to the space's version first). */
export const RESOLVABLE = new Set(['content', 'metadata', 'deleted']);

/** The one-command way: `docs cr resolve` writes the pages with markers into a folder. */
export function resolveHint(spaceId: string, number: string | number, dir = `./cr-${String(number).replace(/^#/, '')}`): string[] {
  const cr = String(number).replace(/^#/, '');
  return [
    'To resolve it:',
    `  docs cr resolve ${spaceId} ${cr} ${dir}   # the change request in ${dir}, clashing lines between <<<<<<< and >>>>>>>`,
    `  then edit each marked page and: docs content push ${dir} --space ${spaceId} --change-request ${cr} --merge`,
  ];
}

/** The marked hunks of each page whose lines clash (kind content), headed by its title and path. */
async function conflictHunks(transport: Transport, spaceId: string, changeRequestId: string, list: NonNullable<Answer['conflicts']>): Promise<string[]> {
  const pages = list.filter((c) => c.kind === 'content' && c.page);
  if (!pages.length) return [];
  // Loaded on a conflict only (diff3 inside): a clean merge does not pay for it.
  const { hunks, labelsOf, sidesOf, threeVersions } = await import('./conflict-hunks.js');
  const sides = await sidesOf(transport, spaceId, changeRequestId);
  const color = colorEnabled(process.stdout);
  const versions = await threeVersions(
    transport,
    spaceId,
    sides,
    pages.map((c) => c.page!),
  );
  const out: string[] = [];
  for (const c of pages) {
    const { base, ours, theirs } = versions.get(c.page!)!;
    out.push(paint(color).bold(`\n${c.title}${c.path !== undefined ? ` (${c.path})` : ''}`), ...hunks(base, ours, theirs, labelsOf(sides.number), color));
  }
  return out;
}

export function mergeLike(def: {
  operationId: 'mergeChangeRequest' | 'updateChangeRequest';
  summary: string;
  examples: string[];
  done: (cr: string, space: string, revision: string) => string;
  clash: string;
  hint: string;
}) {
  return class extends DocsCommand {
    static operations = [def.operationId];
    static summary = def.summary;
    static description =
      `API: POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/${def.operationId === 'mergeChangeRequest' ? 'merge' : 'update'} (${def.operationId}). On conflicts, nothing changes: each conflicting page is printed (kind, title, path), then the clashing lines between git's markers (<<<<<<< space, =======, >>>>>>> change request), and the exit code is 5; docs cr resolve writes them into a folder to edit and push.`;
    static examples = def.examples;
    static args = {
      spaceId: Args.string({ description: 'The space (its ID)', required: true }),
      changeRequestId: Args.string({ description: 'change request number or id', required: true }),
    };
    static flags: Record<string, any> =
      def.operationId === 'mergeChangeRequest'
        ? { 'dry-run': Flags.boolean({ description: 'Change nothing: list the pages the merge would add, change and delete, or its conflicts (exit 5)' }) }
        : {};

    async run(): Promise<unknown> {
      const { args, flags } = await this.parse(this.constructor as any);
      const a = args as { spaceId: string; changeRequestId: string };
      const transport = await this.transport(flags as any);
      const path = { spaceId: a.spaceId, changeRequestId: a.changeRequestId };
      const dry = (flags as any)['dry-run'] === true;
      // A dry run: the same merge on the server, its writes dropped (src/dry-run.ts).
      const answer = dry
        ? ((await transport.docs('POST', '/_docs/dry-run', { body: { operationId: def.operationId, path } })).body as { result: Answer; changes?: Change[] })
        : undefined;
      const body = answer ? answer.result : ((await spin(transport.remote, def.operationId, () => transport.call(def.operationId, { path }))).body as Answer);
      const label = /^\d+$/.test(a.changeRequestId) ? `#${a.changeRequestId}` : a.changeRequestId;
      if (answer && body.result !== 'conflicts') {
        if (!this.jsonEnabled()) {
          const changes = answer.changes ?? [];
          this.log(
            `Dry run, nothing changed: merging change request ${label} into space ${a.spaceId} would make ${changes.length} change${changes.length === 1 ? '' : 's'}:`,
          );
          for (const c of changes)
            this.log(`  ${c.type.replace(/^(page|file)_/, '$1 ').padEnd(13)} ${c.page ? `${c.page.title} (${c.page.path ?? ''})` : (c.file?.name ?? '')}`);
        }
        return { dryRun: true, ...body, changes: answer.changes ?? [] };
      }
      if (body.result !== 'conflicts') {
        if (!this.jsonEnabled()) this.log(def.done(label, a.spaceId, body.revision));
        return body;
      }
      const list = body.conflicts ?? [];
      if (!this.jsonEnabled()) {
        this.log(`Change request ${label} ${def.clash} space ${a.spaceId}; nothing changed. Conflicts:`);
        const width = Math.max(...list.map((c) => c.kind.length));
        for (const c of list) {
          const where = c.file ? `file ${c.title}` : `${c.title}${c.path !== undefined ? ` (${c.path})` : ''}`;
          this.log(`  ${c.kind.padEnd(width)}  ${where}${c.fields?.length ? `: ${c.fields.join(', ')}` : ''}`);
        }
        // The clashing lines themselves, as git shows them: one read of each of the three revisions.
        for (const block of await conflictHunks(transport, a.spaceId, a.changeRequestId, list)) this.log(block);
      }
      // Pages whose lines clash resolve in a folder (cr resolve: one edit, one push); other
      // conflicts (a page moved, deleted or orphaned, a file) by the steps of resolveSteps.
      const inFolder = list.every((c) => c.page && RESOLVABLE.has(c.kind));
      const how = inFolder ? resolveHint(a.spaceId, a.changeRequestId) : resolveSteps(a.spaceId, a.changeRequestId);
      if (dry) process.stderr.write('Dry run: ');
      process.stderr.write(`Error: ${list.length} conflict${list.length === 1 ? '' : 's'}; ${def.hint}\n${how.join('\n')}\n`);
      process.exitCode = EXIT_CONFLICT;
      return dry ? { dryRun: true, ...body } : body;
    }
  };
}
