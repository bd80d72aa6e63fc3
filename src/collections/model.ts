import type { MemberRole } from '../kernel/roles.js';

/**
 * The level members of the organization get on a collection or a space: a role, `null` (none:
 * only organization admins reach it) or `inherit` (whatever the parent collection gives, or the
 * member's organization role at the root).
 */
export type DefaultLevel = MemberRole | 'inherit';

/** A collection: a nestable group of spaces. Lives in its organization's shard. */
export interface CollectionRecord {
  id: string;
  organization: string;
  /** Parent collection, or null at the organization's root. */
  parent: string | null;
  title: string;
  description?: string;
  defaultLevel: DefaultLevel;
  /** Sort key among its siblings (collections and spaces with the same parent). */
  position: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
}

export const COLLECTION_TITLE_MAX = 50;
