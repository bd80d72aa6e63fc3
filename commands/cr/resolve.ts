import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve as resolvePath, sep } from 'node:path';
import { loadParser } from '../../src/content/link-refs.js';
import { writePageSource } from '../../src/documents/page-source.js';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { DocsCommand } from '../_lib/base.js';
import { labelsOf, markedText, sidesOf, threeVersions } from '../_lib/conflict-hunks.js';
import { canonicalBody, pageFile, writeSummary } from '../_lib/content-folder.js';
import { flattenRemote, remoteContent } from '../_lib/content-remote.js';
import { RESOLVABLE, resolveSteps } from '../_lib/merge-result.js';
import { spin } from '../_lib/operation-command.js';

// `docs cr resolve SPACE CR DIR`: a change request that conflicts with its space, made ready to
// resolve by one edit and one push. Why these steps: a three-way merge clashes where both sides
// changed the same lines since the change request's base; pushing a resolved page alone would
// clash again (the base is still the old one). So: (1) each conflicting page of the change
// request is set to the space's version (revert_page to the space's revision: its own version is
// kept in DIR, between the markers, and in its revision history), (2) the change request is
// updated from the space, which no longer clashes, so its base becomes the space's revision,
// (3) its content is written into DIR as `docs content pull` lays it out, each conflicting page
// with git's markers around the clashing lines. Editing the markers away and `docs content push
// DIR --space S --change-request N --merge` then merges without a clash.

interface Conflict {
  kind: string;
  title: string;
  page?: string;
  path?: string;
  file?: string;
  fields?: string[];
}

const BATCH = 50; // updateChangeRequestContent takes at most 50 changes at a time

export default class CrResolve extends DocsCommand {
  static operations = ['updateChangeRequest', 'updateChangeRequestContent'];
  static summary = 'Write a conflicting change request into a folder, clashing lines between <<<<<<< and >>>>>>>, to edit and push';
  static description =
    "For a change request that `docs cr merge` or `docs cr update` answered with conflicts (exit 5): sets each conflicting page of the change request to the space's version (its own version goes into DIR), updates it from the space (no clash is left), and writes its content into DIR as `docs content pull` does, each conflicting page with git's markers (<<<<<<< space, =======, >>>>>>> change request #N) around the lines both sides changed. Edit those, then push: docs content push DIR --space SPACE --change-request N --merge. Pages moved under each other, clashing slugs or files are left to the steps it prints (exit 5, nothing changed). No conflict: it updates the change request from the space and says so. API: getChangeRequestById, updateChangeRequest, getRevisionById, updateChangeRequestContent (revert_page), listPagesInChangeRequest.";
  static examples = [
    '<%= config.bin %> cr resolve dHD9ZmkOPnfy9hWCsaQB 3 ./cr-3',
    '# edit the lines between <<<<<<< and >>>>>>> in ./cr-3, then:',
    '<%= config.bin %> content push ./cr-3 --space dHD9ZmkOPnfy9hWCsaQB --change-request 3 --merge',
  ];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request number or id', required: true }),
    dir: Args.string({ description: 'folder to write it into (default: ./cr-NUMBER)', required: false }),
  };
  static flags = { force: Flags.boolean({ description: 'write into a non-empty folder (files of the same names are replaced)' }) };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrResolve);
    const { spaceId, changeRequestId } = args;
    const transport = await this.transport(flags);
    const sides = await sidesOf(transport, spaceId, changeRequestId);
    const dir = args.dir ?? `./cr-${sides.number}`;
    if (existsSync(dir) && readdirSync(dir).length && !flags.force) throw new DocsError('invalid', `DIR: ${dir} is not empty (use --force to write into it)`);
    const update = () =>
      spin(
        transport.remote,
        'updateChangeRequest',
        async () =>
          (await transport.call('updateChangeRequest', { path: { spaceId, changeRequestId } })).body as {
            result: string;
            revision: string;
            conflicts?: Conflict[];
          },
      );

    // Taking the space's changes in is the first step either way; on a conflict it changes nothing.
    const first = await update();
    if (first.result !== 'conflicts') {
      if (!this.jsonEnabled())
        this.log(
          `No conflict: change request #${sides.number} is up to date with space ${spaceId} (revision ${first.revision}). Merge it: docs cr merge ${spaceId} ${sides.number}`,
        );
      return { conflicts: [], dir: null, revision: first.revision };
    }
    const conflicts = first.conflicts ?? [];
    const unresolvable = conflicts.filter((c) => !c.page || !RESOLVABLE.has(c.kind));
    if (unresolvable.length) {
      const names = unresolvable.map((c) => `${c.kind} ${c.file ? `file ${c.title}` : c.title}`).join(', ');
      process.stderr.write(`${resolveSteps(spaceId, sides.number).join('\n')}\n`);
      throw new DocsError('conflict', `${names}: not a clash of lines; nothing changed (resolve it by the steps above)`);
    }

    // The three versions of each page whose lines clash, read before anything changes.
    const pages = [...new Map(conflicts.map((c) => [c.page!, c])).values()];
    const clashing = pages.filter((c) => conflicts.some((x) => x.page === c.page && x.kind === 'content')).map((c) => c.page!);
    const versions = clashing.length
      ? await threeVersions(transport, spaceId, sides, clashing)
      : new Map<string, { base: string; ours: string; theirs: string }>();

    // (1) the space's version of each conflicting page in the change request, (2) the update.
    await revertToSpace(
      transport,
      spaceId,
      changeRequestId,
      pages.map((c) => c.page!),
      sides.space,
    );
    const second = await update();
    if (second.result === 'conflicts')
      throw new DocsError(
        'conflict',
        `change request #${sides.number} still conflicts with space ${spaceId} (changed again meanwhile?): run docs cr resolve again`,
      );

    // (3) the change request's content into DIR, the clashing pages marked.
    const parse = await loadParser();
    const remote = await remoteContent(transport, spaceId, changeRequestId);
    const flat = flattenRemote(remote.pages);
    // Every name the server gave stays inside DIR, checked before anything is written: a page
    // path or file name such as "../../.bashrc" from a hostile or broken server writes nothing.
    const targets = [...remote.files.map((f) => f.name), ...flat.map(({ page }) => pageFile(page.path, page.children.length > 0)), 'SUMMARY.md'];
    const outside = targets.find((rel) => !insideDir(dir, rel));
    if (outside !== undefined)
      throw new DocsError('invalid', `the server named a page or file outside ${dir}: ${JSON.stringify(outside)}; nothing was written`);
    const write = (rel: string, data: string | Buffer) => {
      const abs = join(dir, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, data);
    };
    for (const f of remote.files) write(f.name, await transport.download(f.downloadURL));
    const byPath = new Map(flat.map((x) => [x.page.path, { hasChildren: x.page.children.length > 0 }]));
    const ids = { pages: new Map(flat.map((x) => [x.page.id, x.page.path])), files: new Map(remote.files.map((f) => [f.id, f.name])) };
    const names = new Set(remote.files.map((f) => f.name));
    const marked: { file: string; title: string; conflicts: number }[] = [];
    const labels = labelsOf(sides.number);
    for (const { page } of flat) {
      const at = { path: page.path, hasChildren: page.children.length > 0 };
      const canonical = (md: string) => canonicalBody(parse, md, at, (p) => byPath.get(p), names, ids);
      const v = versions.get(page.id);
      // Links in each version in the folder's relative form, so that the markers surround only what clashed.
      const m = v ? markedText(canonical(v.base), canonical(v.ours), canonical(v.theirs), labels) : undefined;
      const file = pageFile(page.path, at.hasChildren);
      write(file, writePageSource({ title: page.title, fields: page.fields, body: m?.conflicts ? m.text : canonical(page.markdown) }));
      if (m?.conflicts) marked.push({ file, title: page.title, conflicts: m.conflicts });
    }
    write('SUMMARY.md', writeSummary(remote.pages));

    const other = pages.filter((c) => !versions.has(c.page!));
    if (!this.jsonEnabled()) {
      this.log(
        `Change request #${sides.number} conflicted with space ${spaceId} on ${pages.length} page${pages.length === 1 ? '' : 's'}; it now holds the space's version of ${pages.length === 1 ? 'it' : 'them'} and is updated from the space.`,
      );
      this.log(`Wrote it into ${dir}${marked.length ? `; clashing lines marked (<<<<<<< ${labels.ours} ... ======= ... >>>>>>> ${labels.theirs}) in:` : '.'}`);
      for (const m of marked) this.log(`  ${join(dir, m.file)}  (${m.title}: ${m.conflicts} clash${m.conflicts === 1 ? '' : 'es'})`);
      for (const c of other)
        this.log(
          `  ${c.title}${c.path ? ` (${c.path})` : ''}: ${c.kind}${c.fields?.length ? ` (${c.fields.join(', ')})` : ''}; now the space's version, redo your change in ${dir} if it still applies`,
        );
      this.log(`Edit ${marked.length ? 'each marked page (keep what it should say, remove the markers)' : dir}, then:`);
      this.log(`  docs content push ${dir} --space ${spaceId} --change-request ${sides.number} --merge`);
    }
    return { conflicts, dir, marked: marked.map((m) => ({ file: join(dir, m.file), title: m.title, clashes: m.conflicts })) };
  }
}

/** Whether `rel` (a name the server gave) lands inside `dir`, not on it nor above it, and is not absolute. */
function insideDir(dir: string, rel: string): boolean {
  if (!rel || isAbsolute(rel) || rel.includes('\0')) return false;
  const root = resolvePath(dir);
  return resolvePath(root, rel).startsWith(root + sep);
}

/** Sets `pageIds` of the change request to their state in `revision` (the space's), 50 at a time. */
async function revertToSpace(transport: Transport, spaceId: string, changeRequestId: string, pageIds: string[], revision: string): Promise<void> {
  for (let i = 0; i < pageIds.length; i += BATCH) {
    const changes = pageIds.slice(i, i + BATCH).map((page) => ({ operation: 'revert_page', page, revision }));
    await transport.call('updateChangeRequestContent', { path: { spaceId, changeRequestId }, query: { compat: false }, body: { changes } });
  }
}
