import { existsSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { DocsError } from '../../src/kernel/errors.js';
import type { Transport } from '../../src/transport/types.js';
import { listAll } from './pages.js';

// Which change request `docs content push` writes to. With --change-request N, that one (it must
// still take content: open or draft). Without it, the open change request an earlier push of the
// same folder opened, so a CI job that runs on every commit keeps one change request up to date
// instead of opening one per run; a new one only when none is open.
//
// How a push recognizes its change request: a marker at the end of the subject, `[push:SOURCE]`,
// where SOURCE is the folder's path inside its Git repository (`docs`, `.` for the root), the same
// in every clone and CI checkout; outside a repository, the folder's absolute path. The subject is
// the one field every server implementing the contract stores, returns and lists (no local state
// that a CI runner would lose, no extra field another server may drop); it is also visible in
// `docs cr list`. Editing the subject away from the marker detaches the change request.

export interface PushTarget {
  id: string;
  number: number;
  subject: string;
  status: string;
  /** How it was found: named by --change-request, or opened by an earlier push of the folder. */
  how: 'given' | 'earlier';
}

const MAX_SUBJECT = 100;
const MAX_SOURCE = 48;

/** The folder's path inside its Git repository, else its absolute path (see above). */
export function pushSource(dir: string): string {
  const abs = resolve(dir);
  for (let at = abs; ; at = dirname(at)) {
    if (existsSync(resolve(at, '.git'))) return relative(at, abs).split(sep).join('/') || '.';
    if (dirname(at) === at) return abs.split(sep).join('/');
  }
}

export function pushMarker(dir: string): string {
  const source = pushSource(dir);
  // Long paths keep their end (the part that tells folders apart) within the subject's 100 characters.
  return `[push:${source.length > MAX_SOURCE ? '…' + source.slice(-(MAX_SOURCE - 1)) : source}]`;
}

/** The subject with the marker at its end, within the contract's 100 characters. */
export function markedSubject(message: string | undefined, dir: string): string {
  const marker = pushMarker(dir);
  const text = (message ?? `Push from ${basename(resolve(dir))}`).trim();
  return `${text.slice(0, MAX_SUBJECT - marker.length - 1).trimEnd()} ${marker}`;
}

/** --change-request N: that change request of the space, refused unless it can still take content. */
export async function givenTarget(transport: Transport, spaceId: string, idOrNumber: string): Promise<PushTarget> {
  const cr = (await transport.call('getChangeRequestById', { path: { spaceId, changeRequestId: idOrNumber } })).body as any;
  if (cr.status !== 'open' && cr.status !== 'draft') {
    throw new DocsError(
      'invalid',
      `--change-request: change request #${cr.number} of space ${spaceId} is ${cr.status}; only an open (or draft) change request can be updated (push without --change-request to open a new one)`,
    );
  }
  return { id: cr.id, number: cr.number, subject: cr.subject ?? '', status: cr.status, how: 'given' };
}

/** The open change request an earlier push of `dir` opened (the latest if several), if any. */
export async function earlierTarget(transport: Transport, spaceId: string, dir: string): Promise<PushTarget | undefined> {
  const marker = pushMarker(dir);
  let best: any;
  for (const cr of await listAll<any>(transport, 'listChangeRequestsForSpace', { spaceId }, { status: 'open' })) {
    if (cr.status === 'open' && typeof cr.subject === 'string' && cr.subject.endsWith(marker) && (!best || cr.number > best.number)) best = cr;
  }
  return best ? { id: best.id, number: best.number, subject: best.subject, status: best.status, how: 'earlier' } : undefined;
}
