import { defineOperation } from '../kernel/operation.js';
import { membershipOf } from '../organizations/service.js';
import { presentAgentInstructions } from './present.js';
import { readInstructions, writeInstructions } from './service.js';

export const getOrganizationAgentInstructions = defineOperation('getOrganizationAgentInstructions', ({ ctx, caller, path }) =>
  ctx.store.read((tx) => {
    const { org, member } = membershipOf(tx, path.organizationId, caller);
    return { status: 200, body: presentAgentInstructions(ctx, readInstructions(tx, member, org.createdAt)) };
  }),
);

export const updateOrganizationAgentInstructions = defineOperation('updateOrganizationAgentInstructions', async ({ ctx, caller, path, body }) => {
  const r = await ctx.store.write((tx) => writeInstructions(tx, ctx, membershipOf(tx, path.organizationId, caller).member, body.instructions));
  return { status: 200, body: presentAgentInstructions(ctx, r) };
});
