/** A team of an organization. Membership rows live in `teamMembers`. */
export interface TeamRecord {
  id: string;
  organization: string;
  title: string;
  createdAt: string;
}

/** `owner` manages the team's title and members; `member` only belongs to it. */
export type TeamRole = 'owner' | 'member';

/** A user's membership of a team. Row id is `<team>.<user>`. */
export interface TeamMemberRecord {
  id: string;
  organization: string;
  team: string;
  user: string;
  role: TeamRole;
  addedAt: string;
}

export const teamMemberRowId = (team: string, user: string) => `${team}.${user}`;
