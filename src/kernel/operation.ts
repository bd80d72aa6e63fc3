import type { Caller, Context } from './context.js';

/** What a handler receives: validated (and coerced) input, the caller and the context. */
export interface OperationRequest {
  ctx: Context;
  caller: Caller;
  path: Record<string, any>;
  query: Record<string, any>;
  body: any;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Operation {
  operationId: string;
  handler: (req: OperationRequest) => OperationResult | Promise<OperationResult>;
  /**
   * Body fields accepted beyond the pinned spec's, where API.md asks for one the 0.146.0 schema
   * lacks (e.g. site space `hidden`, in 0.167.0); the handler validates them itself. `'*'`: any
   * field (API.md: "other properties allowed").
   */
  extraBodyFields?: string[];
}

/**
 * Declares the handler of one contract operation, by its official operationId. Method, path,
 * parameters and schemas come from the contract; the handler adds only the behaviour.
 */
export function defineOperation(operationId: string, handler: Operation['handler'], options: { extraBodyFields?: string[] } = {}): Operation {
  return { operationId, handler, ...options };
}
