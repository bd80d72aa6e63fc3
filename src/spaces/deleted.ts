import type { Caller, Context } from '../kernel/context.js';
import { orgSpaces, spaceRow } from '../tree/order.js';
import { DocsError, invalid } from '../kernel/errors.js';
import type { MemberRole } from '../kernel/roles.js';
import { contentAccess } from '../tree/access.js';
import { isExpired, RETENTION_MS } from './retention.js';

// `docs spaces list --deleted`: no contract operation lists deleted spaces (ENDPOINTS.md), so the
// server answers it at GET /_docs/deleted-spaces?organization=ID (src/docs-routes.ts).

export interface DeletedSpaceView {
  object: 'space';
  id: string;
  title: string;
  organization: string;
  /** The collection it was in (restore puts it back there, or at the root if that is gone). */
  parent: string | null;
  deletedAt: string;
  /** deletedAt + 7 days (API.md "Limits"): after this it cannot be restored. */
  purgeAt: string;
  /** Whether the caller may restore it (admin on the space). */
  restorable: boolean;
}

/** The organization's deleted spaces the caller can see and that are not yet past retention, latest first. */
export function listDeletedSpaces(ctx: Context, caller: Caller, organizationId: string): Promise<{ items: DeletedSpaceView[]; count: number }> {
  const now = ctx.clock.now();
  return ctx.store.read((tx) => {
    const access = contentAccess(tx, organizationId, caller);
    const items = orgSpaces(tx, organizationId)
      // A summary entry's absent deletedAt is null.
      .filter((s) => s.deletedAt && !isExpired(s, now))
      .map((s) => ({ s, level: access.space(s) as MemberRole | undefined }))
      .filter((x) => x.level)
      .sort((a, b) => b.s.deletedAt!.localeCompare(a.s.deletedAt!) || a.s.id.localeCompare(b.s.id))
      .map(({ s, level }) => ({
        object: 'space' as const,
        id: s.id,
        title: spaceRow(tx, s)?.title, // undefined only in a run discarded for the shards it loads
        organization: organizationId,
        parent: s.parent ?? null,
        deletedAt: s.deletedAt!,
        purgeAt: new Date(Date.parse(s.deletedAt!) + RETENTION_MS).toISOString(),
        restorable: level === 'admin',
      }));
    return { items, count: items.length };
  });
}

export async function deletedSpacesRoute(ctx: Context, caller: Caller, method: string, query: Record<string, unknown>) {
  if (method !== 'GET')
    throw Object.assign(new DocsError('method_not_allowed', `${method} is not allowed on /_docs/deleted-spaces (allowed: GET)`), { allow: ['GET'] });
  const org = query.organization;
  if (typeof org !== 'string' || !org) throw invalid('organization: required, the organization id (?organization=ID)');
  return { status: 200, body: await listDeletedSpaces(ctx, caller, org) };
}
