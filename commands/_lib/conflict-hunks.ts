import { diff3Merge } from 'node-diff3';
import type { Transport } from '../../src/transport/types.js';
import { paint } from './color.js';

// A merge conflict as a person resolves it: the page's lines with git's markers where both
// sides changed the same lines,
//
//   <<<<<<< space
//   The space's version of the line.
//   =======
//   The change request's version of the line.
//   >>>>>>> change request #3
//
// computed here from the three versions the server merged (src/change-requests/three-way.ts:
// diff3 over lines, base = the revision the change request last took in from the space): the
// API's conflict answer names the pages only, so the CLI reads each side's page once.

export interface Sides {
  number: number;
  /** The revision the change request last synced with (its base). */
  base: string;
  /** The space's current revision. */
  space: string;
  /** The change request's revision. */
  changeRequest: string;
}

/** The three revisions of a change request's merge: one read of it, one of its space. */
export async function sidesOf(transport: Transport, spaceId: string, changeRequestId: string): Promise<Sides> {
  const [cr, space] = await Promise.all([
    transport.call('getChangeRequestById', { path: { spaceId, changeRequestId } }),
    transport.call('getSpaceById', { path: { spaceId } }),
  ]);
  const c = cr.body as any;
  return { number: c.number, base: c.revisionMergedAncestor ?? c.revisionInitial, space: (space.body as any).revision, changeRequest: c.revision };
}

/**
 * Every page's markdown in a revision (by page id): one read (getRevisionById) whatever the
 * number of pages. A page not in it (added on one side) is read as ''.
 */
export async function revisionMarkdown(transport: Transport, spaceId: string, revisionId: string): Promise<Map<string, string>> {
  const body = (await transport.call('getRevisionById', { path: { spaceId, revisionId } })).body as any;
  const out = new Map<string, string>();
  const walk = (pages: any[] = []): void => pages.forEach((p) => (typeof p.markdown === 'string' && out.set(p.id, p.markdown), walk(p.pages)));
  walk(body?.pages);
  return out;
}

/** The base, space and change-request versions of each page (by id), '' where a page is not. */
export async function threeVersions(transport: Transport, spaceId: string, sides: Sides, pageIds: string[]) {
  const [base, ours, theirs] = await Promise.all([sides.base, sides.space, sides.changeRequest].map((r) => revisionMarkdown(transport, spaceId, r)));
  return new Map(pageIds.map((id) => [id, { base: base.get(id) ?? '', ours: ours.get(id) ?? '', theirs: theirs.get(id) ?? '' }]));
}

export interface Labels {
  ours: string;
  theirs: string;
}

export const labelsOf = (number: number): Labels => ({ ours: 'space', theirs: `change request #${number}` });

type Region = { ok?: string[]; conflict?: { a: string[]; o: string[]; b: string[] } };

const regionsOf = (base: string, ours: string, theirs: string): Region[] =>
  diff3Merge(ours.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true }) as Region[];

const block = (c: { a: string[]; b: string[] }, l: Labels) => [`<<<<<<< ${l.ours}`, ...c.a, '=======', ...c.b, `>>>>>>> ${l.theirs}`];

/**
 * The whole text merged, with markers where the sides clash (git's layout: the space's lines
 * first); `conflicts`: how many marked regions.
 */
export function markedText(base: string, ours: string, theirs: string, labels: Labels): { text: string; conflicts: number } {
  const out: string[] = [];
  let conflicts = 0;
  for (const r of regionsOf(base, ours, theirs)) {
    if (r.ok) out.push(...r.ok);
    else if (r.conflict) conflicts++, out.push(...block(r.conflict, labels));
  }
  return { text: out.join('\n'), conflicts };
}

/**
 * Only the clashing regions, each with up to `context` unchanged lines around it and its line
 * number in the merged text (`@@ line 12 @@`), as `cr merge` prints them; markers colored on a
 * terminal (the space's side red, the change request's green, as `cr diff` colors old and new).
 */
export function hunks(base: string, ours: string, theirs: string, labels: Labels, color = false, context = 2): string[] {
  const p = paint(color);
  const regions = regionsOf(base, ours, theirs);
  const out: string[] = [];
  let line = 1;
  regions.forEach((r, i) => {
    if (r.ok) return void (line += r.ok.length);
    const c = r.conflict!;
    const before = (regions[i - 1]?.ok ?? []).slice(-context);
    const after = (regions[i + 1]?.ok ?? []).slice(0, context);
    while (after.length && after.at(-1) === '') after.pop(); // the text's last newline, not a line
    out.push(
      [
        p.cyan(`@@ line ${line - before.length} @@`),
        ...before.map((l) => p.dim(l)),
        p.red(`<<<<<<< ${labels.ours}`),
        ...c.a.map((l) => p.red(l)),
        '=======',
        ...c.b.map((l) => p.green(l)),
        p.green(`>>>>>>> ${labels.theirs}`),
        ...after.map((l) => p.dim(l)),
      ].join('\n'),
    );
    line += c.a.length + c.b.length + 3;
  });
  return out;
}
