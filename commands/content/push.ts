import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { basename, resolve } from 'node:path';
import { loadParser } from '../../src/content/link-refs.js';
import { DocsError } from '../../src/kernel/errors.js';
import { DocsCommand } from '../_lib/base.js';
import { readFolder } from '../_lib/content-folder.js';
import { planPush } from '../_lib/content-plan.js';
import { flattenRemote, remoteContent } from '../_lib/content-remote.js';

export default class ContentPush extends DocsCommand {
  static summary = 'Make a space match a folder of markdown, as one change request (and merge it with --merge)';
  static description =
    'Reads DIR (SUMMARY.md when present, else the folder tree; other files are uploaded), compares it with the space\'s current content and sends only the differences as one change request (createChangeRequest, then updateChangeRequestContent in batches of up to 50 changes). Pushing an unchanged folder makes no change request. Layout: see `docs content pull --help`.';
  static examples = [
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --message "Update install guide"',
    '<%= config.bin %> content push ./docs --space dHD9ZmkOPnfy9hWCsaQB --merge   # CI: publish main',
  ];
  static args = { dir: Args.string({ description: 'folder of markdown', required: true }) };
  static flags = {
    space: Flags.string({ description: 'The space (its ID)', required: true }),
    message: Flags.string({ description: 'subject of the change request (default: "Push from <folder>")' }),
    merge: Flags.boolean({ description: 'merge the change request once its content is in' }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(ContentPush);
    const parse = await loadParser();
    const local = readFolder(args.dir, parse);
    const transport = await this.transport(flags);
    const spinner = process.stderr.isTTY && !this.jsonEnabled() ? (await import('ora')).default({ stream: process.stderr, text: 'Comparing with the space' }).start() : undefined;
    try {
      const remote = await remoteContent(transport, flags.space);
      const plan = await planPush(parse, local, remote, (url) => transport.download(url));
      if (!plan.phase1.length && !plan.phase2.length) {
        spinner?.stop();
        if (!this.jsonEnabled()) this.log(`No change: ${args.dir} matches space ${flags.space}.`);
        return { changeRequest: null, merged: false, ...plan.stats };
      }
      const subject = (flags.message ?? `Push from ${basename(resolve(args.dir))}`).slice(0, 100);
      const cr = (await transport.call('createChangeRequest', { path: { spaceId: flags.space }, body: { subject } })).body as any;
      const ids = new Map(flattenRemote(remote.pages).map((x) => [x.page.path, x.page.id]));
      const batches = Math.ceil(plan.phase1.length / 50) + Math.ceil(plan.phase2.length / 50);
      let n = 0;
      for (const phase of [plan.phase1, plan.phase2]) {
        for (let i = 0; i < phase.length; i += 50) {
          const slice = phase.slice(i, i + 50);
          // Parents inserted by an earlier batch are known by id; in this batch, by ref.
          const changes = slice.map((c) => {
            const change = { ...c.change };
            if (c.intoPath !== undefined) change.into = c.intoPath === null ? null : ids.get(c.intoPath) ?? c.intoPath;
            if (change.operation === 'insert_page' && change.into === null) delete change.into;
            if (c.pagePath !== undefined) change.page = ids.get(c.pagePath);
            return change;
          });
          if (spinner) spinner.text = `Sending changes: batch ${++n} of ${batches}`;
          const res = (await transport.call('updateChangeRequestContent', { path: { spaceId: flags.space, changeRequestId: cr.id }, query: { compat: false }, body: { changes } })).body as any;
          for (const o of res.changes) if (o.object === 'created_page' && o.ref) ids.set(o.ref, o.page.id);
        }
      }
      let merged: string | undefined;
      if (flags.merge) {
        if (spinner) spinner.text = `Merging change request #${cr.number}`;
        const res = (await transport.call('mergeChangeRequest', { path: { spaceId: flags.space, changeRequestId: cr.id } })).body as { revision: string; result: string; conflicts?: { title: string }[] };
        // The space moved meanwhile and clashes with the push: the change request stays open.
        if (res.result === 'conflicts') throw new DocsError('conflict', `change request #${cr.number} conflicts with changes made to space ${flags.space} meanwhile (${(res.conflicts ?? []).map((c) => c.title).join(', ')}); it is left open, not merged (see docs cr merge)`);
        merged = res.revision;
      }
      spinner?.stop();
      const s = plan.stats;
      if (!this.jsonEnabled()) {
        this.log(`Change request #${cr.number} (${cr.id}): ${s.added} pages added, ${s.updated} updated, ${s.deleted} deleted, ${s.files} files uploaded.`);
        if (merged) this.log(`Merged into space ${flags.space}: revision ${merged}.`);
      }
      return { changeRequest: cr.id, number: cr.number, merged: !!merged, ...(merged ? { revision: merged } : {}), ...s };
    } finally {
      spinner?.stop();
    }
  }
}
