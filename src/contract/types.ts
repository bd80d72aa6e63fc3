// The contract's types, generated from both specs at build time (scripts/contract-types.mjs) and
// used by presenters and handlers so that drift from either spec fails to compile
// (docs/manual/contract.md#the-contracts-types). Type-only: nothing here exists at run time.
import type { ContractOperations, LatestSchemas, PinnedSchemas } from '../../generated/contract/types.js';

export type { ContractOperations, LatestSchemas, PinnedSchemas };

/** The operationId of an operation of the contract. */
export type OperationId = keyof ContractOperations;

/** The name of a component schema of either spec. */
export type SchemaName = keyof PinnedSchemas | keyof LatestSchemas;

/**
 * A component schema as a response must be: in both specs, what satisfies both (every field
 * either requires, each field's type as both allow it); in one spec, that spec's.
 */
export type Schema<N extends SchemaName> = N extends keyof PinnedSchemas
  ? N extends keyof LatestSchemas
    ? PinnedSchemas[N] & LatestSchemas[N]
    : PinnedSchemas[N]
  : N extends keyof LatestSchemas
    ? LatestSchemas[N]
    : never;

type Statuses<Id extends OperationId> = keyof ContractOperations[Id]['responses'];

/** The body of an operation's answer with `status`, valid against each spec that has the operation. */
export type ResponseBody<Id extends OperationId, S extends Statuses<Id> = Statuses<Id>> = ContractOperations[Id]['responses'][S] &
  (ContractOperations[Id]['latestResponses'] extends never
    ? unknown
    : S extends keyof ContractOperations[Id]['latestResponses']
      ? ContractOperations[Id]['latestResponses'][S]
      : unknown);

/** An operation's path parameters, query parameters and body as validated (and coerced). */
export type ValidatedInput<Id extends OperationId> = Pick<ContractOperations[Id], 'path' | 'query' | 'body'>;
