import type { Schema } from '../contract/types.js';
import { apiUrl, type Context } from '../kernel/context.js';
import type { AgentInstructionsRecord } from './model.js';

/** The contract's OrganizationAgentInstructions. */
export function presentAgentInstructions(ctx: Context, r: AgentInstructionsRecord): Schema<'OrganizationAgentInstructions'> {
  return {
    object: 'agent-instructions' as const,
    // Stored as validated on input (the contract's instructions).
    instructions: r.instructions as Schema<'OrganizationAgentInstructions'>['instructions'],
    updatedAt: r.updatedAt,
    updatedBy: r.updatedBy,
    urls: { location: apiUrl(ctx, `/orgs/${r.organization}/agent-instructions`) },
  };
}
