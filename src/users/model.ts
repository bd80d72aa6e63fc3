/** A stored user. The API's User adds `object` and `urls`. */
export interface UserRecord {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
  createdAt: string;
}
