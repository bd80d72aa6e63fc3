// Roles, from most to least powerful; `null` is a guest. A role includes every right of the
// roles below it, which is how API.md describes them (admin administrates content, create
// creates it, review reviews it, edit edits it, comment discusses it, read only reads).
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];
export type MemberRole = Role | null;

const RANK: Record<Role, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1 };

/** Whether `role` grants at least `needed` (a guest, null, grants nothing beyond seeing). */
export function atLeast(role: MemberRole, needed: Role): boolean {
  return role !== null && RANK[role] >= RANK[needed];
}
