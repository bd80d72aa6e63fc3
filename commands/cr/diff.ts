import * as Args from '@oclif/core/args';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { DocsCommand } from '../_lib/base.js';
import { colorEnabled, paint, type Paint } from '../_lib/color.js';

interface Flat {
  id: string;
  path: string;
  text: string;
}

/** Every page of a revision's tree as the text a reader would compare: `# Title`, then the body. */
function flatten(pages: any[], out: Flat[] = []): Flat[] {
  for (const p of pages) {
    const body = p.type === 'link' ? `→ ${p.href ?? p.target?.url ?? ''}\n` : (p.markdown ?? '');
    out.push({ id: p.id, path: p.path ?? p.title, text: `# ${p.title}\n${body ? `\n${body}` : ''}` });
    flatten(p.pages ?? [], out);
  }
  return out;
}

/**
 * One page's unified diff as git colors it: its file header bold, hunk headers cyan, added lines
 * green, removed ones red; the text unchanged when `p` does not color.
 */
export function colorPatch(patch: string, p: Paint): string {
  let header = true; // until the first hunk: a removed "-- x" line is not the "--- a/..." header
  return patch
    .split('\n')
    .map((l) => {
      if (l.startsWith('@@')) {
        header = false;
        return p.cyan(l);
      }
      if (header) return p.bold(l);
      return l.startsWith('+') ? p.green(l) : l.startsWith('-') ? p.red(l) : l;
    })
    .join('\n');
}

export default class CrDiff extends DocsCommand {
  static operations = ['getChangeRequestById', 'listPagesInChangeRequest'];
  static summary = 'Show what a change request changes: a unified diff per changed page, against its base revision';
  static description =
    'The base is the revision the change request was last updated from, else the one it started from (revisionMergedAncestor ?? revisionInitial). Pages are matched by id, so a moved page shows both paths. API: getChangeRequestById, getRevisionById, listPagesInChangeRequest.';
  static examples = ['<%= config.bin %> cr diff dHD9ZmkOPnfy9hWCsaQB 4', '<%= config.bin %> cr diff dHD9ZmkOPnfy9hWCsaQB 4 --json'];
  static args = {
    spaceId: Args.string({ description: 'The space (its ID)', required: true }),
    changeRequestId: Args.string({ description: 'change request number or id', required: true }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(CrDiff);
    const transport = await this.transport(flags);
    const path = { spaceId: args.spaceId, changeRequestId: args.changeRequestId };
    const cr = (await transport.call('getChangeRequestById', { path })).body as any;
    const base: string = cr.revisionMergedAncestor ?? cr.revisionInitial;
    const [before, after] = await Promise.all([
      transport.call('getRevisionById', { path: { spaceId: args.spaceId, revisionId: base } }),
      transport.call('listPagesInChangeRequest', { path }),
    ]);
    const old = new Map(flatten((before.body as any).pages).map((p) => [p.id, p]));
    const now = flatten((after.body as any).pages);
    const nowIds = new Set(now.map((p) => p.id));
    // Pages in the change request's order, then the deleted ones in the base's order.
    const ids = [...now.map((p) => p.id), ...[...old.keys()].filter((id) => !nowIds.has(id))];
    const byId = new Map(now.map((p) => [p.id, p]));
    const pages = [];
    for (const id of ids) {
      const [a, b] = [old.get(id), byId.get(id)];
      if (a && b && a.text === b.text && a.path === b.path) continue;
      const patch = createTwoFilesPatch(a ? `a/${a.path}` : '/dev/null', b ? `b/${b.path}` : '/dev/null', a?.text ?? '', b?.text ?? '', '', '', {
        headerOptions: FILE_HEADERS_ONLY,
      });
      pages.push({ page: id, change: !a ? 'added' : !b ? 'deleted' : 'modified', path: (b ?? a)!.path, patch });
    }
    if (!this.jsonEnabled()) {
      if (!pages.length) this.log(`No changes in change request #${cr.number} against revision ${base}.`);
      const color = paint(colorEnabled(process.stdout));
      for (const p of pages) this.log(colorPatch(p.patch.trimEnd(), color));
    }
    return { changeRequest: cr.id, number: cr.number, base, revision: cr.revision, pages };
  }
}
