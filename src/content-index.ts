import { readChangeRequest } from './change-requests/service.js';
import { linkIndexOf, rowSha, trustedSpans, sha256hex } from './content/link-index.js';
import { loadParser } from './content/link-refs.js';
import type { ContentRevision, PageNode } from './content/model.js';
import { contentRowId } from './content/model.js';
import { currentRevision, readRevision, treeOf } from './content/revisions.js';
import { flatten } from './content/tree.js';
import type { Caller, Context } from './kernel/context.js';
import { DocsError, invalid } from './kernel/errors.js';
import { visibleSpace } from './spaces/service.js';
import { purgeIfExpired } from './space-expiry.js';
import { PageContents } from './content/tables.js';

// GET /_docs/content-index?space=S[&changeRequest=N]: what `docs content push` needs besides the
// contract's listPages and listFiles to compare a folder with a space without parsing every
// page: for each document page, the SHA-256 of its markdown and where its links are (the link
// index stored with the body when it was written, checked against the markdown and recomputed
// when it does not check out: src/content/link-index.ts), and each file's SHA-256 (stored when
// it was uploaded), so that files are compared by hash instead of downloaded. Not a contract
// operation (no such field or route in GitBook's API), so under /_docs: answered by `docs serve`
// (server/docs-routes.ts) and in-process (LocalTransport.docs) alike. The caller must see the
// space (or the change request), as for listPages: nothing is answered that listPages does not
// already give, except the hashes of bytes it can download.

export interface ContentIndex {
  /** The revision the index describes. */
  revision: string;
  /** By page id: the SHA-256 of its markdown (as listPages gives it) and its link offsets. */
  pages: Record<string, { sha: string; links: number[] }>;
  /** By file id: the SHA-256 of its bytes. */
  files: Record<string, string>;
}

const str = (v: unknown, name: string) => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !v || v.length > 200) throw invalid(`${name}: must be an id`);
  return v;
};

export async function contentIndexRoute(
  ctx: Context,
  caller: Caller,
  method: string,
  query: Record<string, unknown>,
): Promise<{ status: number; body: ContentIndex }> {
  if (method !== 'GET')
    throw Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on /_docs/content-index (allowed: GET)`), { allow: ['GET'] });
  const space = str(query.space, 'space');
  const cr = str(query.changeRequest, 'changeRequest');
  if (!space) throw invalid('space: required, the space id (?space=ID)');
  await purgeIfExpired(ctx, space);
  const read = await ctx.store.read((tx) => {
    const rev: ContentRevision = cr
      ? readRevision(tx, space, readChangeRequest(tx, caller, space, cr).cr.revision)
      : currentRevision(tx, visibleSpace(tx, caller, space).row);
    const bodies: { id: string; markdown: string; stored: unknown; sha: string }[] = [];
    for (const { node } of flatten(treeOf(tx, rev)) as { node: PageNode }[]) {
      if (node.type !== 'document' || !node.content) continue;
      const row = tx.get(PageContents, contentRowId(space, node.content));
      // The row's hash, once per loaded row (rowSha): a pull and a push read it more than once.
      bodies.push({ id: node.id, markdown: row?.markdown ?? '', stored: row?.links, sha: row ? rowSha(row) : sha256hex('') });
    }
    return { rev, bodies };
  });
  // The parser is loaded only when some body's index has to be recomputed.
  const pages: ContentIndex['pages'] = {};
  const later: typeof read.bodies = [];
  for (const b of read.bodies) {
    const sha = b.sha;
    const spans = trustedSpans(b.markdown, b.stored, sha);
    if (spans) pages[b.id] = { sha, links: spans };
    else later.push(b);
  }
  if (later.length) {
    const parse = await loadParser();
    for (const b of later) pages[b.id] = (({ sha, spans }) => ({ sha, links: spans }))(linkIndexOf(parse, b.markdown, b.stored));
  }
  const files: ContentIndex['files'] = {};
  for (const f of read.rev.files ?? []) files[f.id] = f.sha;
  return { status: 200, body: { revision: read.rev.id, pages, files } };
}
