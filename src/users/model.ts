/** A stored user. The API's User adds `object` and `urls`. */
export interface UserRecord {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
  createdAt: string;
  /**
   * The instance vouches for this address (joining by email domain needs it). Set only by an
   * instance owner (docs users update --email-verified); a user made by someone's invitation is
   * not verified. See src/users/instance.ts.
   */
  emailVerified?: boolean;
  /** An instance owner designated by another (docs users update --instance-owner). */
  instanceOwner?: boolean;
}
