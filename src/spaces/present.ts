import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import { presentOnce, type Presented } from '../kernel/serialized.js';
import type { MemberRole } from '../kernel/roles.js';
import { spacePermissions } from '../tree/access.js';
import type { SpaceCounts } from './counts.js';
import type { SpaceRecord } from './model.js';

/**
 * The space's URLs, all derived from the server's base URL. `published` exists unless the space
 * is private, `public` only when it is public. A share-link space is published at a URL that
 * carries the share key the caller gave (`shareKey`); checking a key against a site's share
 * links belongs to docs sites, which will also give `published` the site's own address.
 */
export function spaceUrls(ctx: Context, s: SpaceRecord, shareKey?: string) {
  const published = `${ctx.baseUrl}/p/${s.id}`;
  return {
    location: apiUrl(ctx, `/spaces/${s.id}`),
    app: `${ctx.baseUrl}/o/${s.organization}/s/${s.id}`,
    ...(s.visibility !== 'private'
      ? { published: s.visibility === 'share-link' && shareKey ? `${published}?share=${encodeURIComponent(shareKey)}` : published }
      : {}),
    ...(s.visibility === 'public' ? { public: published } : {}),
    ...(s.icon ? { icon: s.icon } : {}),
  };
}

const presented = new WeakMap<SpaceRecord, Presented>();

/** The contract's Space object, as seen by a caller with `level` on it (serialized once per inputs). */
export function presentSpace(ctx: Context, s: SpaceRecord, level: MemberRole, counts: SpaceCounts, shareKey?: string): Schema<'Space'> {
  const key = `${level}\0${counts.comments}\0${counts.changeRequests}\0${counts.changeRequestsOpen}\0${counts.changeRequestsDraft}\0${shareKey ?? ''}\0${ctx.baseUrl}`;
  return presentOnce(presented, s, key, () => buildSpace(ctx, s, level, counts, shareKey));
}

function buildSpace(ctx: Context, s: SpaceRecord, level: MemberRole, counts: SpaceCounts, shareKey?: string): Schema<'Space'> {
  return {
    object: 'space' as const,
    id: s.id,
    title: s.title,
    // Required by the contract: an empty string when the space has no emoji.
    emoji: s.emoji ?? '',
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    ...(s.deletedAt ? { deletedAt: s.deletedAt } : {}),
    editMode: s.editMode,
    ...(s.type ? { type: s.type } : {}),
    // Stored as validated on input (the contract's merge rules).
    mergeRules: s.mergeRules as Schema<'Space'>['mergeRules'],
    urls: spaceUrls(ctx, s, shareKey),
    organization: s.organization,
    ...(s.parent ? { parent: s.parent } : {}),
    ...(s.language ? { language: s.language as Schema<'Space'>['language'] } : {}),
    revision: s.revision,
    defaultLevel: s.defaultLevel,
    ...counts,
    permissions: spacePermissions(level, s),
  };
}
