import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { Parse } from '../../src/content/link-refs.js';
import { lazyParser } from '../_lib/markdown-parser.js';
import { readPageSource } from '../../src/documents/page-source.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { orgFlag, organizationOf } from '../_lib/org.js';
import { canonicalBody, composePage, pageFile, writeSummary } from '../_lib/content-folder.js';
import { attachDigests, flattenRemote, pageFields, remoteContent, resolvePageLinks, withIndex, type RemotePage } from '../_lib/content-remote.js';
import { sha256hex } from '../../src/content/link-index.js';
import { sourceLinksHold } from '../../src/content/push-context.js';
import { PullTarget } from '../_lib/pull-target.js';
import { CONFIG_FILE, parseRepoConfig } from '../_lib/gitbook-yaml.js';
import { yielder } from '../_lib/yield.js';

export default class ContentPull extends DocsCommand {
  static operations = ['listPages', 'listFiles', 'getPageById', 'getFileById'];
  static summary = "Write a space's content (or a change request's) to a folder of markdown";
  static description =
    'Layout: a page at path a/b is a/b.md, or a/b/README.md when it has subpages (frontmatter for description, emoji, icon, hidden; then "# Title" and the body); SUMMARY.md keeps the order; files are written under their names. Only inside DIR: a name that is not a safe relative path, or whose path is taken, is written under a safe name, with a warning naming the original. Links become relative. A page pushed from a file (by docs content push, to a docs server) is written back as that file, byte for byte, unless it was changed in the space since: then it is written from the space\'s content and named on stderr with the reason. Group pages are `## Title` headings of SUMMARY.md; link pages to a URL are its `* [Title](https://...)` entries, link pages to a page of the space its `* [Title](page.md#anchor)` entries (`page.md#` for the page itself). A space pushed with a .gitbook.yaml gets it back, with the pages under its root and SUMMARY.md at its structure.summary. `docs content push` of the same folder changes nothing. API: listPages, listFiles (or their change-request forms) and each file\'s downloadURL.';
  static examples = [
    '<%= config.bin %> content pull ./docs --space dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> content pull ./review --space dHD9ZmkOPnfy9hWCsaQB --change-request 4',
  ];
  static args = { dir: Args.string({ description: 'folder to write (must be empty unless --force)', required: true }) };
  static flags = {
    space: Flags.string({ description: 'The space (its ID)', exactlyOne: ['space', 'site'] }),
    site: Flags.string({
      description: `a whole site: DIR/gitbook-docs.yaml maps its sections, section groups and spaces (each with a stable key) to folders of DIR`,
      exactlyOne: ['space', 'site'],
    }),
    org: orgFlag(),
    'change-request': Flags.string({ description: "a change request (id or number) instead of the space's current content" }),
    force: Flags.boolean({ description: 'write into a non-empty folder (files of the same names are replaced)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ContentPull);
    if (flags.site) return this.siteRun(args.dir, flags);
    if (existsSync(args.dir) && !statSync(args.dir).isDirectory()) throw new DocsError('invalid', `DIR: ${args.dir} is not a folder`);
    if (existsSync(args.dir) && readdirSync(args.dir).length && !flags.force)
      throw new DocsError('invalid', `DIR: ${args.dir} is not empty (use --force to write into it)`);
    const transport = await this.transport(flags);
    const parse = lazyParser();
    // Without the content index: asked (indexLinks below) only when a page is written from its
    // body, not from the file it was pushed from (a pulled folder that was pushed has none).
    const got = await remoteContent(transport, flags.space!, flags['change-request'], false);
    // Each kept file's hash and what its links depended on: an unchanged one is not parsed.
    await attachDigests(transport, flags.space!, flags['change-request'], got.pages);
    // Every path is claimed before anything is written, SUMMARY.md first, then pages (the
    // content), then files: whatever the server sends, each lands inside DIR, under its own name
    // or (unsafe, or taken) under a safe one, with a warning (pull-target.ts).
    // A space pushed with a .gitbook.yaml keeps it (a file of that name): written back at the
    // top, and the pages under its root, the table of contents at its structure.summary.
    const outer = new PullTarget(args.dir);
    const kept = got.files.find((f) => f.name === CONFIG_FILE);
    let config = parseRepoConfig('');
    if (kept) {
      const text = await transport.download(kept.downloadURL);
      try {
        config = parseRepoConfig(text.toString('utf8'));
      } catch (err) {
        process.stderr.write(
          `Warning: the space's ${CONFIG_FILE} was not read (${(err as Error).message.replace(/; nothing was sent$/, '')}): pages written at the top of ${args.dir}\n`,
        );
      }
      for (const w of config.warnings) process.stderr.write(`Warning: ${w}\n`);
      outer.write(CONFIG_FILE, text);
    }
    const target = config.root ? new PullTarget(insideRoot(args.dir, config.root)) : outer;
    const summaryFile = target.reserve(config.summary);
    // Link pages to a page: written with the file that page is written to.
    const remote = {
      pages: resolvePageLinks(localPages(target, got.pages)),
      files: got.files.filter((f) => f !== kept).map((f) => ({ ...f, name: target.claimFile(f.name) })),
    };
    for (const f of remote.files) target.write(f.name, await transport.download(f.downloadURL));
    const flat = flattenRemote(remote.pages);
    const byPath = new Map(flat.map((x) => [x.page.path, { hasChildren: x.page.children.length > 0 }]));
    const ids = { pages: new Map(flat.map((x) => [x.page.id, x.page.path])), files: new Map(remote.files.map((f) => [f.id, f.name])) };
    const names = new Set(remote.files.map((f) => f.name));
    const pageOf = (p: string) => byPath.get(p);
    const stale = new Set(got.stale);
    // Pages written from their body rather than from the file they were pushed from, and why.
    const rewritten: { path: string; file: string; why: string }[] = [];
    // The server's link offsets of every page (the content index), asked once, when a page's
    // body is first needed in relative form.
    let indexed: Promise<void> | undefined;
    const indexLinks = () => (indexed ??= withIndex(transport, flags.space!, flags['change-request'], remote.pages, []));
    const tick = yielder();
    for (const { page } of flat) {
      await tick();
      if (page.group || page.link !== undefined) continue; // a SUMMARY.md heading or link page, no file
      const at = { path: page.path, hasChildren: page.children.length > 0 };
      const file = pageFile(page.path, at.hasChildren);
      // The server's link offsets (checked against the markdown): links made relative unparsed.
      // Made only when needed: a kept file written back as it is needs no body (most pages of a
      // pulled folder that was pushed).
      let made: string | undefined;
      const body = async () => {
        if (made === undefined) {
          await indexLinks();
          made = canonicalBody(parse, page.markdown, at, pageOf, names, ids, page.links);
        }
        return made;
      };
      // The file it was pushed from, byte for byte, when pushing it again would change nothing
      // (same title, fields and content): the round trip keeps every character.
      const why =
        page.source === undefined
          ? stale.has(page.id)
            ? 'its content was edited in the space since it was pushed'
            : undefined
          : await sourceDiffers(parse, page, at, pageOf, names, ids, body);
      if (page.source !== undefined && why === undefined) {
        target.write(file, page.source);
        continue;
      }
      if (why) rewritten.push({ path: page.path, file, why });
      target.write(file, composePage({ title: page.title, fields: page.fields, body: await body() }));
    }
    target.write(summaryFile, writeSummary(remote.pages, summaryFile));
    if (rewritten.length) {
      process.stderr.write(
        `Note: ${rewritten.length} page${rewritten.length === 1 ? ' was' : 's were'} changed in the space since pushed from a folder, so written from the space's content (links in relative ./ form, trailing spaces trimmed) rather than as pushed:\n`,
      );
      for (const r of rewritten) process.stderr.write(`  ${r.file}: ${r.why}\n`);
    }
    const result = {
      dir: args.dir,
      pages: flat.filter((x) => !x.page.group && x.page.link === undefined).length,
      files: remote.files.length,
      ...(target.renamed.length ? { renamed: target.renamed } : {}),
      ...(rewritten.length ? { rewritten } : {}),
    };
    if (!this.jsonEnabled()) {
      const renamed = target.renamed.length ? ` (${target.renamed.length} under another name: see the warnings)` : '';
      this.log(`Pulled ${result.pages} pages and ${remote.files.length} files into ${args.dir}${renamed}.`);
    }
    return result;
  }

  /** --site: gitbook-docs.yaml and each space's folder (commands/_lib/site-push.ts). */
  private async siteRun(dir: string, flags: Record<string, any>): Promise<unknown> {
    if (flags['change-request'] !== undefined) throw new DocsError('invalid', '--change-request: not with --site');
    const transport = await this.transport(flags);
    const { pullSite } = await import('../_lib/site-push.js');
    const { result, exit } = await pullSite(
      {
        dir,
        site: flags.site,
        org: await organizationOf(flags, transport),
        transport,
        config: this.config,
        pass: [],
        dryRun: false,
        json: this.jsonEnabled(),
        log: (l) => this.log(l),
      },
      !!flags.force,
    );
    if (exit) process.exitCode = exit;
    return result;
  }
}

/** DIR/root, refused when a folder on the way is a link leading out of DIR (--force into a folder that has one). */
function insideRoot(dir: string, root: string): string {
  const real = realpathSync(dir);
  let at = dir;
  for (const seg of root.split('/')) {
    at = join(at, seg);
    if (!existsSync(at)) break;
    const r = relative(real, realpathSync(at));
    if (r === '..' || r.startsWith(`..${sep}`) || isAbsolute(r))
      throw new DocsError('invalid', `${CONFIG_FILE}: root ${root}: ${at} leads outside ${dir}; nothing was written under it`);
  }
  return join(dir, root);
}

/**
 * Why the page's kept source is not what the space holds now (its title, fields or content were
 * changed since it was pushed), or undefined when pushing the source again would change nothing.
 */
async function sourceDiffers(
  parse: Parse,
  page: RemotePage,
  at: { path: string; hasChildren: boolean },
  pageOf: (p: string) => { hasChildren: boolean } | undefined,
  names: Set<string>,
  ids: { pages: Map<string, string>; files: Map<string, string> },
  body: () => Promise<string>,
): Promise<string | undefined> {
  let src;
  try {
    src = readPageSource(page.source!, { title: page.title });
  } catch {
    return 'its pushed file no longer reads';
  }
  if (src.title !== page.title) return `its title was changed in the space (to "${page.title}")`;
  if (JSON.stringify(Object.entries(pageFields(src.fields)).sort()) !== JSON.stringify(Object.entries(page.fields).sort()))
    return 'its description, emoji, icon or hidden flag was changed in the space';
  // Pushing it again would change nothing when what its links depended on holds in the tree
  // pulled (push-context.ts): known without parsing it (docs-as-code.md#what-a-push-reads).
  if (
    page.digest &&
    sha256hex(page.source!) === page.digest.sha &&
    sourceLinksHold(page.digest.links, {
      path: at.path,
      stateOf: (p) => {
        const x = pageOf(p);
        return !x ? 0 : x.hasChildren ? 2 : 1;
      },
      hasFile: (n) => names.has(n),
      pagePath: (id) => ids.pages.get(id),
      fileName: (id) => ids.files.get(id),
    })
  )
    return undefined;
  if (canonicalBody(parse, src.body, at, pageOf, names, ids) !== (await body()))
    return 'a page or file it links to was moved or renamed, or its content was edited in the space';
  return undefined;
}

/** The page tree with each page's path where it is written: its server path when safe and free. */
function localPages(target: PullTarget, pages: RemotePage[], parent: { remote: string; local: string } | null = null): RemotePage[] {
  return pages.map((p) => {
    // A link page has no file: nothing to claim (written as its URL in SUMMARY.md).
    if (p.link !== undefined) return { ...p };
    // Its own part of the path (its slug): what follows its parent's path on the server.
    const own = parent && p.path.startsWith(`${parent.remote}/`) ? p.path.slice(parent.remote.length + 1) : p.path;
    const local = target.claimPage(parent?.local ?? null, own, p.path, p.children.length > 0);
    return { ...p, path: local, children: localPages(target, p.children, { remote: p.path, local }) };
  });
}
