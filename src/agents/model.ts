// Stored records of the agents area (docs/manual/agents.md). Agent tasks are derived from the
// conversations engine at every read (one per issues cluster); what is stored is only what a
// person decided about a task: that it was canceled. Organization agent conversations are stored
// per organization and per user (their ids are the client's).

/** What a person decided about the task of a cluster. Row id = the cluster's id (= the task's id). */
export interface AgentTaskRecord {
  id: string;
  organization: string;
  canceled: boolean;
  updatedAt: string;
  updatedBy: string;
}

/** A conversation with the organization agent: its creator's alone. */
export interface AgentConversationRecord {
  id: string;
  organization: string;
  /** Its creator: the only user who sees, renames or deletes it. */
  user: string;
  /** The client's id for it (`default`, or a local id), unique per organization and user. */
  conversation: string;
  /** `<organization>\u0000<user>\u0000<conversation>`, indexed. */
  key: string;
  title?: string;
  createdAt: string;
  updatedAt: string;
  /** Last provisioning (PUT): refreshes the session, changes nothing the API shows. */
  provisionedAt: string;
}

export const agentConversationKey = (organization: string, user: string, conversation: string) => `${organization}\u0000${user}\u0000${conversation}`;

/**
 * A conversation of this server's agent in the context of a change request (0.202.0's change
 * request conversations): recorded when the agent opens or edits a change request on a person's
 * behalf (src/agents/cr-conversations.ts). Kept with the change request, in its space's shard.
 */
export interface ChangeRequestConversationRecord {
  id: string;
  space: string;
  changeRequest: string;
  /** Its id in the API: `default` for the change request's first one, as GitBook names it. */
  conversation: string;
  /** The person the agent acted for (who started the task, ran the check, triggered the finding). */
  user: string;
  /** What made the agent act: `agent-task:<id>`, `styleguide-run:<id>`, `site-finding:<id>`. */
  origin: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}
