import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { lazyParser } from '../_lib/markdown-parser.js';
import { FILE_NAME_RULE, fileNameProblem } from '../../src/content/safe-names.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { startSpinner } from '../_lib/color.js';
import { problemLine, verdict } from '../_lib/check-report.js';
import { flattenLocal, pageFile, readFolder } from '../_lib/content-folder.js';
import { CONFIG_FILE, readRepoConfig } from '../_lib/gitbook-yaml.js';
import { join } from 'node:path';
import { planPush, pushBatches, type PlannedChange } from '../_lib/content-plan.js';
import { FactCache, LinkCache } from '../_lib/link-cache.js';
import { flattenRemote, remoteContent, remoteForPush, type PushRemote } from '../_lib/content-remote.js';
import { resolveHint } from '../_lib/merge-result.js';
import { pagePathsOf, pushRedirects } from '../_lib/push-redirects.js';
import { earlierTarget, givenTarget, markedSubject, type PushTarget } from '../_lib/push-target.js';

export default class ContentPush extends DocsCommand {
  static operations = ['createChangeRequest', 'updateChangeRequestContent', 'updateChangeRequestById', 'mergeChangeRequest'];
  static summary = 'Make a space match a folder of markdown, as one change request (and merge it with --merge)';
  static description =
    "Reads DIR (SUMMARY.md when present, else the folder tree in natural order with a root README.md first; other files are uploaded), compares it with the space's content and sends only the differences as one change request (createChangeRequest, then updateChangeRequestContent in batches of up to 50 changes). An open change request opened by an earlier push of the same folder is updated instead of opening another (its subject ends with [push:FOLDER], FOLDER being DIR's path in its Git repository); --change-request N updates that one. Only regular files inside DIR are read (symbolic links resolved): a SUMMARY.md entry or a link leading outside, or a file listed twice without #, is refused (exit 2, nothing sent). Markdown files SUMMARY.md does not list are skipped, each named on stderr (--strict: exit 2, nothing sent). Pushing an unchanged folder changes nothing. SUMMARY.md: each link's text is the page's title; `## Heading` lines make group pages (their pages in one folder of their own); an entry linking to a URL (`* [Status](https://status.example.com)`) makes a link page (http, https and mailto only; no credentials in it), and so does an entry linking to a heading of a page listed elsewhere (`* [Buttons](inline.md#buttons)`; `inline.md#` for the page itself). A .gitbook.yaml in DIR is read as GitBook's Git Sync reads it (root, structure.readme, structure.summary; unknown keys are named in a warning) and kept in the space; its redirects become the redirects of each site holding the space (one bulk call per site, after the merge; listed by --dry-run). Each page's file is kept with it, so `docs content pull` gives the same bytes back. --dry-run lists what would change and changes nothing (exit codes as the real push). Layout: see `docs content pull --help`.";
  static examples = [
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --message "Update install guide"',
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --change-request 4   # update change request #4',
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --strict --merge   # CI: publish main',
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --check --merge   # docs content check first: nothing sent when it fails',
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --merge --dry-run   # on a pull request: what would change, nothing changed',
  ];
  static args = { dir: Args.string({ description: 'folder of markdown', required: true }) };
  static flags = {
    space: Flags.string({ description: 'The space (its ID)', exactlyOne: ['space', 'site'] }),
    site: Flags.string({
      description: `a whole site: DIR/gitbook-docs.yaml maps its sections, section groups and spaces (each with a stable key) to folders of DIR`,
      exactlyOne: ['space', 'site'],
    }),
    org: orgFlag(),
    message: Flags.string({ description: 'subject of the change request (default: "Push from <folder>")' }),
    merge: Flags.boolean({ description: 'merge the change request once its content is in' }),
    'change-request': Flags.string({ description: 'update this open change request (number or id) instead of opening one' }),
    strict: Flags.boolean({ description: 'refuse (exit 2, nothing sent) when markdown files are missing from SUMMARY.md' }),
    check: Flags.boolean({ description: 'run `docs content check DIR` first: when it finds a problem, print them and exit 1, nothing sent' }),
    'dry-run': Flags.boolean({
      description:
        'Change nothing: list the pages the push would add, update and delete and the files it would upload (the server runs the push on a store whose writes are dropped: exit codes as the real push, 5 for a --merge that would conflict)',
    }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ContentPush);
    if (flags.site) return this.siteRun(args.dir, flags);
    const parse = lazyParser();
    if (flags.check) {
      // Before anything is read for the push or asked of the server: a failed check sends nothing.
      // The pages under .gitbook.yaml's root, when it names one.
      const { root, summary } = readRepoConfig(args.dir);
      const facts = FactCache.load();
      // Loaded only for --check: a push without it does not pay for the checker's modules.
      const { checkFolder } = await import('../_lib/content-check.js');
      const checked = await checkFolder(root ? join(args.dir, root) : args.dir, parse, facts, summary);
      facts.save();
      if (checked.problems.length) {
        for (const p of checked.problems) process.stderr.write(`${problemLine(p)}\n`);
        process.stderr.write(`Error: --check: ${verdict(checked)}; nothing was sent\n`);
        process.exitCode = 1;
        return { changeRequest: null, merged: false, check: checked };
      }
    }
    // .gitbook.yaml: the pages are under its root, the table of contents at structure.summary;
    // the file itself is kept in the space (this server has no site redirects: its redirects
    // travel with the content, and pull writes it back).
    const config = readRepoConfig(args.dir);
    for (const w of config.warnings) process.stderr.write(`Warning: ${w}\n`);
    const local = await readFolder(config.root ? join(args.dir, config.root) : args.dir, parse, { summary: config.summary, readme: config.readme });
    if (config.text !== undefined) local.files.push({ name: CONFIG_FILE, abs: join(args.dir, CONFIG_FILE), size: Buffer.byteLength(config.text) });
    for (const n of local.notes) process.stderr.write(`Warning: ${n}\n`);
    // The pages' files by path, which pushRedirects reads only when .gitbook.yaml has redirects.
    const redirectPaths = () => (Object.keys(config.redirects).length ? pagePathsOf(local.pages) : new Map<string, string>());
    // The server refuses names that are not safe path segments: refused here, before a change
    // request is opened, rather than halfway through the push.
    for (const f of local.files) {
      const bad = fileNameProblem(f.name);
      if (bad) throw new DocsError('invalid', `${f.name}: not a safe file name (${bad}); a file name is ${FILE_NAME_RULE}; rename it; nothing was sent`);
    }
    if (local.skipped.length) {
      const list = local.skipped.join(', ');
      if (flags.strict)
        throw new DocsError(
          'invalid',
          `--strict: ${local.skipped.length} markdown file${local.skipped.length === 1 ? ' is' : 's are'} not in ${args.dir}/SUMMARY.md: ${list} (list them in SUMMARY.md, or remove them); nothing was sent`,
        );
      for (const f of local.skipped) process.stderr.write(`Warning: skipped ${f}: not in SUMMARY.md\n`);
    }
    const transport = await this.transport(flags);
    const spinner = this.jsonEnabled() ? undefined : await startSpinner('Comparing with the space');
    const space = flags.space!;
    try {
      const target: PushTarget | undefined = flags['change-request']
        ? await givenTarget(transport, space, flags['change-request'])
        : await earlierTarget(transport, space, args.dir);
      // An existing change request is compared with its own content: only what the folder changes
      // since the last push is sent, and pushing the same folder again changes nothing.
      const remote = await remoteForPush(transport, space, target?.id);
      const cache = LinkCache.load();
      const plan = await planPush(parse, local, remote, (url) => transport.download(url), cache);
      cache.save();
      const changed = plan.phase1.length > 0 || plan.phase2.length > 0;
      const label = target ? `change request #${target.number}${target.how === 'earlier' ? ` (opened by an earlier push of ${args.dir})` : ''}` : '';
      if (flags['dry-run']) {
        spinner?.stop();
        // .gitbook.yaml redirects → the sites of the space (docs/manual/sites.md#redirects): listed, not sent.
        const siteFlag = (flags as Record<string, unknown>).site as string | undefined;
        const wouldRedirect = await pushRedirects(transport, space, config.redirects, redirectPaths(), { dry: true, site: siteFlag });
        if (wouldRedirect.lines.length && !this.jsonEnabled()) this.log(wouldRedirect.lines.join('\n'));
        return await this.dryRun(
          transport,
          {
            dir: args.dir,
            space,
            target,
            label,
            changed,
            merge: !!flags.merge,
            subject: target?.how === 'earlier' || !target ? markedSubject(flags.message, args.dir) : undefined,
          },
          plan,
          local,
          remote,
        );
      }
      if (!changed && !target) {
        // The same folder is likely pushed again (a CI job on every merge): the server keeps what
        // it compared it with, and the next push reads that instead of the page tree.
        if (!remote.kept) await remote.keep?.();
        spinner?.stop();
        if (!this.jsonEnabled()) this.log(`No change: ${args.dir} matches space ${space}.`);
        // The pages are the space's: its sites get the .gitbook.yaml redirects (docs/manual/sites.md#redirects).
        const same = await pushRedirects(transport, space, config.redirects, redirectPaths(), {
          site: (flags as Record<string, unknown>).site as string | undefined,
        });
        if (same.lines.length && !this.jsonEnabled()) this.log(same.lines.join('\n'));
        if (same.errors) process.exitCode = 1;
        return { changeRequest: null, merged: false, ...(same.sites.length ? { redirects: same.sites } : {}), ...plan.stats };
      }
      let cr: { id: string; number: number };
      if (target) {
        cr = target;
        // A new --message on a change request found by its marker: the subject follows, marker kept.
        if (flags.message && target.how === 'earlier') {
          const subject = markedSubject(flags.message, args.dir);
          if (subject !== target.subject)
            await transport.call('updateChangeRequestById', { path: { spaceId: space, changeRequestId: target.id }, body: { subject } });
        }
      } else {
        cr = (await transport.call('createChangeRequest', { path: { spaceId: space }, body: { subject: markedSubject(flags.message, args.dir) } })).body as any;
      }
      if (changed) await this.send(transport, space, cr.id, plan, flattenRemote(remote.pages), spinner);
      let merged: string | undefined;
      if (flags.merge) {
        if (spinner) spinner.text = `Merging change request #${cr.number}`;
        const res = (await transport.call('mergeChangeRequest', { path: { spaceId: space, changeRequestId: cr.id } })).body as {
          revision: string;
          result: string;
          conflicts?: { title: string; path?: string }[];
        };
        // The space moved meanwhile and clashes with the push: the change request stays open.
        if (res.result === 'conflicts') {
          spinner?.stop();
          const pages = (res.conflicts ?? []).map((c) => `${c.title}${c.path !== undefined ? ` (${c.path})` : ''}`).join(', ');
          throw new DocsError(
            'conflict',
            `change request #${cr.number} conflicts with changes made to space ${space} meanwhile: ${pages}; it is left open with the folder's content, not merged.\n${resolveHint(space, cr.number).join('\n')}`,
          );
        }
        merged = res.revision;
        // The space's tree is now the folder's: its digest kept for the next push (see above; the
        // merge loaded the tree, so this costs the row's write).
        await remote.keep?.();
      }
      spinner?.stop();
      // .gitbook.yaml redirects → the sites of the space, once its pages are the space's (merged, or unchanged).
      const redirected =
        merged || !changed
          ? await pushRedirects(transport, space, config.redirects, redirectPaths(), {
              site: (flags as Record<string, unknown>).site as string | undefined,
            })
          : undefined;
      if (redirected?.errors) process.exitCode = 1;
      const s = plan.stats;
      if (!this.jsonEnabled()) {
        if (!changed) this.log(`No change: ${args.dir} matches ${label}.`);
        else if (target) this.log(`Updated ${label}: ${s.added} pages added, ${s.updated} updated, ${s.deleted} deleted, ${s.files} files uploaded.`);
        else
          this.log(`Change request #${cr.number} (${cr.id}): ${s.added} pages added, ${s.updated} updated, ${s.deleted} deleted, ${s.files} files uploaded.`);
        if (merged) this.log(`Merged into space ${space}: revision ${merged}.`);
        if (redirected?.lines.length) this.log(redirected.lines.join('\n'));
      }
      return {
        changeRequest: cr.id,
        number: cr.number,
        // new: opened by this push; given: --change-request; earlier: opened by an earlier push of DIR.
        target: target?.how ?? 'new',
        merged: !!merged,
        ...(merged ? { revision: merged } : {}),
        ...(redirected?.sites.length ? { redirects: redirected.sites } : {}),
        ...s,
      };
    } finally {
      spinner?.stop();
    }
  }

  /** --site: the whole site of DIR/gitbook-docs.yaml, space by space (commands/_lib/site-push.ts). */
  private async siteRun(dir: string, flags: Record<string, any>): Promise<unknown> {
    for (const f of ['change-request', 'message'] as const)
      if (flags[f] !== undefined) throw new DocsError('invalid', `--${f}: not with --site (each space gets its own change request, merged)`);
    const transport = await this.transport(flags);
    const { pushSite } = await import('../_lib/site-push.js');
    const { result, exit } = await pushSite({
      dir,
      site: flags.site,
      org: await organizationOf(flags, transport),
      transport,
      config: this.config,
      pass: [...(flags.check ? ['--check'] : []), ...(flags.strict ? ['--strict'] : [])],
      dryRun: !!flags['dry-run'],
      json: this.jsonEnabled(),
      log: (l) => this.log(l),
    });
    if (exit) process.exitCode = exit;
    return result;
  }

  /**
   * --dry-run: what the push would change, page by page, and the push run by the server on a
   * store whose writes are dropped (POST /_docs/dry-run, contentPush): its refusals and a
   * --merge's conflicts are the real push's, with the same exit codes; nothing changes.
   */
  private async dryRun(
    transport: Awaited<ReturnType<DocsCommand['transport']>>,
    run: { dir: string; space: string; target?: PushTarget; label: string; changed: boolean; merge: boolean; subject?: string },
    plan: Awaited<ReturnType<typeof planPush>>,
    local: Awaited<ReturnType<typeof readFolder>>,
    remote: PushRemote,
  ) {
    const rflat = flattenRemote(remote.pages);
    const byId = new Map(rflat.map((x) => [x.page.id, x.page]));
    const lflat = flattenLocal(local.pages);
    // A link page is shown as its SUMMARY.md entry (it has no file): [Status](https://...).
    const entry = (p: { title: string; link?: string }) => `[${p.title}](${p.link})`;
    const fileOf = (path: string) => {
      const l = lflat.find((x) => x.page.path === path)?.page;
      if (l?.link !== undefined) return entry(l);
      return l?.group ? `## ${l.title}` : pageFile(path, (l?.children.length ?? 0) > 0);
    };
    const titleOf = (path: string) => {
      const l = lflat.find((x) => x.page.path === path)?.page;
      return l?.link !== undefined ? path : (l?.title ?? path);
    };
    const shown = (path: string) => (lflat.find((x) => x.page.path === path)?.page.link !== undefined ? fileOf(path) : path);
    const added = plan.phase1.filter((c) => c.change.operation === 'insert_page').map((c) => c.path!);
    const deleted = plan.phase1
      .filter((c) => c.change.operation === 'delete_page')
      .map((c) => {
        const r = byId.get(c.change.page);
        return r?.link !== undefined ? entry(r) : (r?.path ?? c.change.page);
      });
    const isNew = new Set(added);
    const updated = plan.phase2.filter((c) => c.pagePath !== undefined && !isNew.has(c.pagePath)).map((c) => c.pagePath!);
    const files = plan.phase1.filter((c) => c.change.operation === 'insert_files').flatMap((c) => c.change.files.map((f: any) => f.name as string));
    const s = plan.stats;
    const where = run.target ? run.label : `a new change request in space ${run.space}`;
    let answer: any;
    if (run.changed || run.target) {
      const ids = liveIds(rflat, plan);
      const batches = pushBatches(plan).map((batch) => batch.map((c) => prepare(c, ids)));
      answer = (
        await transport.docs('POST', '/_docs/dry-run', {
          body: {
            operationId: 'contentPush',
            path: { spaceId: run.space, ...(run.target ? { changeRequestId: run.target.id } : {}) },
            subject: run.subject,
            batches,
            merge: run.merge,
          },
        })
      ).body;
    }
    const conflicts = answer?.merge?.result === 'conflicts' ? ((answer.merge.conflicts ?? []) as { title: string; path?: string }[]) : undefined;
    if (!this.jsonEnabled()) {
      if (!run.changed && !run.target) this.log(`No change: ${run.dir} matches space ${run.space}.`);
      else {
        this.log(
          `Dry run, nothing changed: pushing ${run.dir} would ${run.changed ? `put into ${where}` : `leave ${where} as it is`}: ${s.added} pages added, ${s.updated} updated, ${s.deleted} deleted, ${s.files} files uploaded.`,
        );
        for (const p of added) this.log(`  added    ${fileOf(p)}${titleOf(p) !== p ? ` (${titleOf(p)})` : ''}`);
        for (const p of updated) this.log(`  updated  ${fileOf(p)}`);
        for (const p of deleted) this.log(`  deleted  ${p}`);
        for (const f of files) this.log(`  upload   ${f}`);
        if (run.merge && !conflicts) this.log(`The change request would be merged into space ${run.space}.`);
      }
    }
    if (conflicts) {
      const pages = conflicts.map((c) => `${c.title}${c.path !== undefined ? ` (${c.path})` : ''}`).join(', ');
      throw new DocsError(
        'conflict',
        `Dry run: the change request would conflict with changes made to space ${run.space} meanwhile: ${pages}; it would be left open with the folder's content, not merged; nothing changed`,
      );
    }
    return {
      dryRun: true,
      changeRequest: run.target?.id ?? null,
      ...(run.target ? { number: run.target.number } : {}),
      target: run.target?.how ?? (run.changed ? 'new' : null),
      merged: false,
      wouldMerge: run.merge && !!answer?.merge && !conflicts,
      ...s,
      pages: { added: added.map(shown), updated: updated.map(shown), deleted },
      uploads: files,
    };
  }

  /** The plan's changes, in batches (pushBatches; pages inserted by an earlier batch are then known by id). */
  private async send(
    transport: Awaited<ReturnType<DocsCommand['transport']>>,
    spaceId: string,
    crId: string,
    plan: Awaited<ReturnType<typeof planPush>>,
    flat: ReturnType<typeof flattenRemote>,
    spinner?: { text: string },
  ) {
    const ids = liveIds(flat, plan);
    const batches = pushBatches(plan);
    let n = 0;
    for (const batch of batches) {
      // Parents inserted by an earlier batch are known by id; in this batch, by ref.
      const changes = batch.map((c) => prepare(c, ids));
      if (spinner) spinner.text = `Sending changes: batch ${++n} of ${batches.length}`;
      const res = (
        await transport.call('updateChangeRequestContent', { path: { spaceId, changeRequestId: crId }, query: { compat: false }, body: { changes } })
      ).body as any;
      if (Array.isArray(res?.changes)) {
        for (const o of res.changes) if (o.object === 'created_page' && o.ref) ids.set(o.ref, o.page.id);
      } else if (n < batches.length) {
        // A server answering the compat form (the change request, no per-change results; the
        // latest spec's default) does not say which ids the new pages got: read them back by
        // path before a later batch needs them.
        for (const x of flattenRemote((await remoteContent(transport, spaceId, crId)).pages)) ids.set(x.page.path, x.page.id);
      }
    }
  }
}

/** A planned change as sent: parents and pages by id when known, else by path (a ref of the same batch, or of an earlier one in a dry run). */
function prepare(c: PlannedChange, ids: Map<string, string>) {
  const change = { ...c.change };
  if (c.intoPath !== undefined) change.into = c.intoPath === null ? null : (ids.get(c.intoPath) ?? c.intoPath);
  if (change.operation === 'insert_page' && change.into === null) delete change.into;
  if (c.pagePath !== undefined) change.page = ids.get(c.pagePath) ?? c.pagePath;
  // A link page to a page: that page by id when known, else by its ref (its path).
  if (c.targetPath !== undefined) change.target = { ...change.target, page: ids.get(c.targetPath) ?? c.targetPath };
  return change;
}

/** Page ids by path, of the pages the push keeps (a deleted page's path may be taken by a new one: a group that became a page). */
function liveIds(flat: ReturnType<typeof flattenRemote>, plan: { phase1: PlannedChange[] }) {
  const gone = new Set<string>(plan.phase1.filter((c) => c.change.operation === 'delete_page').map((c) => c.change.page));
  for (const x of flat) if (x.parent && gone.has(x.parent)) gone.add(x.page.id);
  return new Map(flat.filter((x) => !gone.has(x.page.id)).map((x) => [x.page.path, x.page.id]));
}
