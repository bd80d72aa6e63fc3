import type { DefaultLevel } from '../collections/model.js';

export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export type MergeRules = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules: { rule: string; users?: string[]; expression?: string }[] };

/**
 * A space's metadata. It lives in its organization's shard (so a tree lists cheaply and a
 * transfer moves it with the organization); its content lives in the `space/<id>` shard.
 */
export interface SpaceRecord {
  id: string;
  organization: string;
  /** Parent collection, or null at the organization's root. */
  parent: string | null;
  title: string;
  emoji?: string;
  /** URL of an icon: the alternative to `emoji`, never both. */
  icon?: string;
  visibility: Visibility;
  editMode: 'live' | 'locked';
  mergeRules: MergeRules;
  defaultLevel: DefaultLevel;
  language?: string;
  /** The active revision (a row of `revisions`, in the space's shard). */
  revision: string;
  /** Sort key among its siblings (collections and spaces with the same parent). */
  position: number;
  createdAt: string;
  updatedAt: string;
  /** Set while the space is deleted: restorable for RETENTION_MS, then purged. */
  deletedAt?: string;
  createdBy: string;
  /** `styleguide`: the space holds a site's writing rules (docs/manual/styleguides.md); absent for a regular space. */
  type?: 'styleguide';
}

/**
 * A revision of a space's content. This area creates only the initial, empty one; the content
 * area adds pages, files and later revisions (each with its parents) to the same shard.
 */
export interface RevisionRecord {
  id: string;
  space: string;
  parents: string[];
  createdAt: string;
  type: 'edits';
}

export const SPACE_TITLE_MAX = 50;
