import type { CollectionRecord, DefaultLevel } from '../collections/model.js';
import type { Caller } from '../kernel/context.js';
import { DocsError, forbidden } from '../kernel/errors.js';
import { atLeast, type MemberRole, type Role } from '../kernel/roles.js';
import type { MemberRecord, OrganizationRecord } from '../organizations/model.js';
import { membershipOf } from '../organizations/service.js';
import type { SpaceRecord } from '../spaces/model.js';
import type { ReadTx } from '../store/port.js';
import { higher, MemberGrants } from './grants.js';
import { Collections } from '../collections/tables.js';

/**
 * What a member may do on the content of one organization (docs/manual/collections-and-spaces.md).
 *
 * - Organization admins are admins of every collection and space: content cannot be hidden
 *   from the people who administer the organization.
 * - Guests (role null) reach no content through an organization-wide default.
 * - Everyone else gets the item's `defaultLevel`: a role (which may be above or below their
 *   organization role: that is how a collection is opened to editors or closed to readers),
 *   `null` (nothing), or `inherit`: the level of the parent collection, and at the
 *   organization's root their own organization role.
 * - Above that, the grants (src/tree/grants.ts): a role given on the item, on a collection above
 *   it, to the member or to a team of theirs raises their level there (guests included), never
 *   lowers it.
 */
export class ContentAccess {
  private readonly cache = new Map<string, MemberRole>();
  private readonly reachCache = new Map<string, MemberRole>();
  private held?: MemberGrants;

  constructor(
    private readonly tx: ReadTx,
    readonly org: OrganizationRecord,
    readonly member: MemberRecord,
  ) {}

  /** A fresh view: levels cached before a write may no longer hold after it. */
  renewed(): ContentAccess {
    return new ContentAccess(this.tx, this.org, this.member);
  }

  /** The level children of `parent` inherit (a collection id, or null for the root). */
  container(parent: string | null): MemberRole {
    if (parent === null) return this.member.role;
    const c = this.tx.get(Collections, parent);
    // A parent deleted meanwhile (only deleted spaces point at one): as at the root.
    if (!c || c.organization !== this.org.id) return this.member.role;
    return this.collection(c);
  }

  collection(c: CollectionRecord): MemberRole {
    let level = this.cache.get(c.id);
    if (level === undefined) {
      level = higher(this.resolve(c.defaultLevel, c.parent), this.granted('collection', c.id, c.parent));
      this.cache.set(c.id, level);
    }
    return level;
  }

  space(s: Pick<SpaceRecord, 'id' | 'parent' | 'defaultLevel'>): MemberRole {
    return higher(this.resolve(s.defaultLevel, s.parent), this.granted('space', s.id, s.parent));
  }

  /** What the member's grants (and their teams') give on an item: its own and its collections'. */
  granted(kind: 'space' | 'collection', id: string, parent: string | null): MemberRole {
    if (this.member.role === 'admin') return 'admin';
    this.held ??= new MemberGrants(this.tx, this.member);
    if (this.held.empty) return null;
    return higher(this.held.on(kind, id), this.reach(parent));
  }

  /** The grants a collection passes down to what it holds (its own and those above it). */
  private reach(parent: string | null, depth = 0): MemberRole {
    if (parent === null || depth > 64) return null;
    let level = this.reachCache.get(parent);
    if (level === undefined) {
      const c = this.tx.get(Collections, parent);
      level = !c || c.organization !== this.org.id ? null : higher(this.held!.on('collection', c.id), this.reach(c.parent, depth + 1));
      this.reachCache.set(parent, level);
    }
    return level;
  }

  private resolve(defaultLevel: DefaultLevel, parent: string | null): MemberRole {
    if (this.member.role === 'admin') return 'admin';
    if (this.member.role === null) return null;
    return defaultLevel === 'inherit' ? this.container(parent) : defaultLevel;
  }
}

/** The caller's access to an organization's content; a 404 naming `what` for non-members. */
export function contentAccess(tx: ReadTx, organizationId: string, caller: Caller, what?: string): ContentAccess {
  try {
    const { org, member } = membershipOf(tx, organizationId, caller);
    return new ContentAccess(tx, org, member);
  } catch (err) {
    if (what && err instanceof DocsError && err.kind === 'not_found') throw new DocsError('not_found', `${what} not found`);
    throw err;
  }
}

/** 403 unless `level` is at least `needed`; the message names what is missing and for what. */
export function requireLevel(level: MemberRole, needed: Role, action: string, on: string): void {
  if (!atLeast(level, needed)) throw forbidden(`${action} needs the ${needed} level on ${on} (you have ${level ?? 'none'})`);
}

/** 403 unless the caller may create content inside `parent` (a collection id, or the root). */
export function requireCreateIn(access: ContentAccess, parent: string | null, action: string): void {
  if (parent === null) {
    if (!atLeast(access.member.role, 'create')) {
      throw forbidden(`${action} at the organization's root needs the create role in this organization (you have ${access.member.role ?? 'guest'})`);
    }
    return;
  }
  requireLevel(access.container(parent), 'create', action, `collection ${parent}`);
}

/** The Collection `permissions` booleans for a caller of the given level. */
export function collectionPermissions(level: MemberRole) {
  return {
    view: atLeast(level, 'read'),
    admin: atLeast(level, 'admin'),
    viewInviteLinks: atLeast(level, 'admin'),
    create: atLeast(level, 'create'),
  };
}

/**
 * The Space `permissions` booleans for a caller of the given level. A locked space refuses
 * every content edit, so the booleans that write content (edit, merge, git sync) are false there.
 */
export function spacePermissions(level: MemberRole, space: Pick<SpaceRecord, 'editMode'>) {
  const live = space.editMode === 'live';
  return {
    view: atLeast(level, 'read'),
    access: atLeast(level, 'read'),
    admin: atLeast(level, 'admin'),
    viewInviteLinks: atLeast(level, 'admin'),
    edit: live && atLeast(level, 'edit'),
    triggerGitSync: live && atLeast(level, 'edit'),
    comment: atLeast(level, 'comment'),
    merge: live && atLeast(level, 'review'),
    review: atLeast(level, 'review'),
    installIntegration: atLeast(level, 'admin'),
  };
}
