import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { MemberRole } from '../kernel/roles.js';
import { collectionPermissions } from '../tree/access.js';
import type { CollectionRecord } from './model.js';

/** The contract's Collection object, as seen by a caller with `level` on it. */
export function presentCollection(ctx: Context, c: CollectionRecord, level: MemberRole): Schema<'Collection'> {
  return {
    object: 'collection' as const,
    id: c.id,
    title: c.title,
    ...(c.description !== undefined ? { description: c.description } : {}),
    organization: c.organization,
    ...(c.parent ? { parent: c.parent } : {}),
    defaultLevel: c.defaultLevel,
    urls: { location: apiUrl(ctx, `/collections/${c.id}`), app: `${ctx.baseUrl}/o/${c.organization}/c/${c.id}` },
    permissions: collectionPermissions(level),
  };
}
