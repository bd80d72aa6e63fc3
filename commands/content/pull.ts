import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { loadParser } from '../../src/content/link-refs.js';
import { writePageSource } from '../../src/documents/page-source.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { canonicalBody, pageFile, writeSummary } from '../_lib/content-folder.js';
import { flattenRemote, remoteContent, type RemotePage } from '../_lib/content-remote.js';
import { PullTarget } from '../_lib/pull-target.js';
import { yielder } from '../_lib/yield.js';

export default class ContentPull extends DocsCommand {
  static summary = "Write a space's content (or a change request's) to a folder of markdown";
  static description =
    'Layout: a page at path a/b is a/b.md, or a/b/README.md when it has subpages (frontmatter for description, emoji, icon, hidden; then "# Title" and the body); SUMMARY.md keeps the order; files are written under their names. Only inside DIR: a name that is not a safe relative path, or whose path is taken, is written under a safe name, with a warning naming the original. Links become relative. `docs content push` of the same folder changes nothing. API: listPages, listFiles (or their change-request forms) and each file\'s downloadURL.';
  static examples = [
    '<%= config.bin %> content pull ./docs --space dHD9ZmkOPnfy9hWCsaQB',
    '<%= config.bin %> content pull ./review --space dHD9ZmkOPnfy9hWCsaQB --change-request 4',
  ];
  static args = { dir: Args.string({ description: 'folder to write (must be empty unless --force)', required: true }) };
  static flags = {
    space: Flags.string({ description: 'The space (its ID)', required: true }),
    'change-request': Flags.string({ description: 'a change request (id or number) instead of the space\'s current content' }),
    force: Flags.boolean({ description: 'write into a non-empty folder (files of the same names are replaced)' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ContentPull);
    if (existsSync(args.dir) && !statSync(args.dir).isDirectory()) throw new DocsError('invalid', `DIR: ${args.dir} is not a folder`);
    if (existsSync(args.dir) && readdirSync(args.dir).length && !flags.force) throw new DocsError('invalid', `DIR: ${args.dir} is not empty (use --force to write into it)`);
    const transport = await this.transport(flags);
    const parse = await loadParser();
    const got = await remoteContent(transport, flags.space, flags['change-request']);
    // Every path is claimed before anything is written, SUMMARY.md first, then pages (the
    // content), then files: whatever the server sends, each lands inside DIR, under its own name
    // or (unsafe, or taken) under a safe one, with a warning (pull-target.ts).
    const target = new PullTarget(args.dir);
    target.reserve('SUMMARY.md');
    const remote = { pages: localPages(target, got.pages), files: got.files.map((f) => ({ ...f, name: target.claimFile(f.name) })) };
    for (const f of remote.files) target.write(f.name, await transport.download(f.downloadURL));
    const flat = flattenRemote(remote.pages);
    const byPath = new Map(flat.map((x) => [x.page.path, { hasChildren: x.page.children.length > 0 }]));
    const ids = { pages: new Map(flat.map((x) => [x.page.id, x.page.path])), files: new Map(remote.files.map((f) => [f.id, f.name])) };
    const names = new Set(remote.files.map((f) => f.name));
    const tick = yielder();
    for (const { page } of flat) {
      await tick();
      const at = { path: page.path, hasChildren: page.children.length > 0 };
      // The server's link offsets (checked against the markdown): links made relative unparsed.
      const body = canonicalBody(parse, page.markdown, at, (p) => byPath.get(p), names, ids, page.links);
      target.write(pageFile(page.path, at.hasChildren), writePageSource({ title: page.title, fields: page.fields, body }));
    }
    target.write('SUMMARY.md', writeSummary(remote.pages));
    const result = { dir: args.dir, pages: flat.length, files: remote.files.length, ...(target.renamed.length ? { renamed: target.renamed } : {}) };
    if (!this.jsonEnabled()) {
      const renamed = target.renamed.length ? ` (${target.renamed.length} under another name: see the warnings)` : '';
      this.log(`Pulled ${flat.length} pages and ${remote.files.length} files into ${args.dir}${renamed}.`);
    }
    return result;
  }
}

/** The page tree with each page's path where it is written: its server path when safe and free. */
function localPages(target: PullTarget, pages: RemotePage[], parent: { remote: string; local: string } | null = null): RemotePage[] {
  return pages.map((p) => {
    // Its own part of the path (its slug): what follows its parent's path on the server.
    const own = parent && p.path.startsWith(`${parent.remote}/`) ? p.path.slice(parent.remote.length + 1) : p.path;
    const local = target.claimPage(parent?.local ?? null, own, p.path, p.children.length > 0);
    return { ...p, path: local, children: localPages(target, p.children, { remote: p.path, local }) };
  });
}
