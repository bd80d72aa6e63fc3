import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadParser } from '../../src/content/link-refs.js';
import { writePageSource } from '../../src/documents/page-source.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { canonicalBody, pageFile, writeSummary } from '../_lib/content-folder.js';
import { flattenRemote, remoteContent } from '../_lib/content-remote.js';

export default class ContentPull extends DocsCommand {
  static summary = "Write a space's content (or a change request's) to a folder of markdown";
  static description =
    'Layout: a page at path a/b is a/b.md, or a/b/README.md when it has subpages (frontmatter for description, emoji, icon, hidden; then "# Title" and the body); SUMMARY.md keeps the order; files are written under their names. Links become relative. `docs content push` of the same folder changes nothing. API: listPages, listFiles (or their change-request forms) and each file\'s downloadURL.';
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
    if (existsSync(args.dir) && readdirSync(args.dir).length && !flags.force) throw new DocsError('invalid', `DIR: ${args.dir} is not empty (use --force to write into it)`);
    const transport = await this.transport(flags);
    const parse = await loadParser();
    const remote = await remoteContent(transport, flags.space, flags['change-request']);
    const write = (rel: string, data: string | Buffer) => {
      const abs = join(args.dir, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, data);
    };
    for (const f of remote.files) write(f.name, await transport.download(f.downloadURL));
    const flat = flattenRemote(remote.pages);
    const byPath = new Map(flat.map((x) => [x.page.path, { hasChildren: x.page.children.length > 0 }]));
    const ids = { pages: new Map(flat.map((x) => [x.page.id, x.page.path])), files: new Map(remote.files.map((f) => [f.id, f.name])) };
    const names = new Set(remote.files.map((f) => f.name));
    for (const { page } of flat) {
      const at = { path: page.path, hasChildren: page.children.length > 0 };
      const body = canonicalBody(parse, page.markdown, at, (p) => byPath.get(p), names, ids);
      write(pageFile(page.path, at.hasChildren), writePageSource({ title: page.title, fields: page.fields, body }));
    }
    write('SUMMARY.md', writeSummary(remote.pages));
    const result = { dir: args.dir, pages: flat.length, files: remote.files.length };
    if (!this.jsonEnabled()) this.log(`Pulled ${flat.length} pages and ${remote.files.length} files into ${args.dir}.`);
    return result;
  }
}
