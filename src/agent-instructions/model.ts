/** The Docs agent's instructions of an organization. Row id is the organization's id. */
export interface AgentInstructionsRecord {
  id: string;
  organization: string;
  /** A Document (`{object: document, data, nodes}`), as the contract's JSONDocument. */
  instructions: { object: 'document'; data: Record<string, unknown>; nodes: unknown[] };
  updatedAt: string;
  updatedBy: string;
}
