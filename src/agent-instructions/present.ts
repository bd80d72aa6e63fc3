import { apiUrl, type Context } from '../kernel/context.js';
import type { AgentInstructionsRecord } from './model.js';

/** The contract's OrganizationAgentInstructions. */
export function presentAgentInstructions(ctx: Context, r: AgentInstructionsRecord) {
  return {
    object: 'agent-instructions' as const,
    instructions: r.instructions,
    updatedAt: r.updatedAt,
    updatedBy: r.updatedBy,
    urls: { location: apiUrl(ctx, `/orgs/${r.organization}/agent-instructions`) },
  };
}
