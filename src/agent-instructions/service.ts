import type { Context } from '../kernel/context.js';
import type { MemberRecord } from '../organizations/model.js';
import { membersOf, requireOrgRole } from '../organizations/service.js';
import type { ReadTx, WriteTx } from '../store/port.js';
import type { AgentInstructionsRecord } from './model.js';
import { AgentInstructions } from './tables.js';

/**
 * The organization's instructions. Before any were written they are an empty document, dated
 * from the organization's creation and attributed to its earliest member (its creator, while they
 * are still a member): the contract requires `updatedAt` and `updatedBy` on every answer.
 */
export function readInstructions(tx: ReadTx, caller: MemberRecord, orgCreatedAt: string): AgentInstructionsRecord {
  requireOrgRole(caller, 'read', 'reading the agent instructions');
  const stored = tx.get(AgentInstructions, caller.organization);
  if (stored) return stored;
  const first = membersOf(tx, caller.organization).sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.user.localeCompare(b.user))[0];
  return {
    id: caller.organization,
    organization: caller.organization,
    instructions: { object: 'document', data: {}, nodes: [] },
    updatedAt: orgCreatedAt,
    updatedBy: first?.user ?? caller.user,
  };
}

export function writeInstructions(
  tx: WriteTx,
  ctx: Context,
  caller: MemberRecord,
  instructions: AgentInstructionsRecord['instructions'],
): AgentInstructionsRecord {
  requireOrgRole(caller, 'admin', 'changing the agent instructions');
  return tx.put(AgentInstructions, {
    id: caller.organization,
    organization: caller.organization,
    instructions,
    updatedAt: ctx.clock.now().toISOString(),
    updatedBy: caller.user,
  });
}
