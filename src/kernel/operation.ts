import type { ContractOperations, OperationId } from '../contract/types.js';
import type { Caller, Context } from './context.js';

/**
 * What a handler receives: validated (and coerced) input, the caller and the context. Given the
 * operation's id (defineOperation infers it), `path`, `query` and `body` are the contract's types for
 * that operation (generated from the specs: docs/manual/contract.md#the-contracts-types); given
 * several ids (one handler shared by several operations), any of theirs. Without one, input of no
 * operation in particular: strings in the path, unknown query values and body.
 */
export type OperationRequest<Id extends OperationId | undefined = undefined, Extra extends string = never> = [Id] extends [OperationId]
  ? Id extends OperationId
    ? {
        ctx: Context;
        caller: Caller;
        path: ContractOperations[Id]['path'];
        query: ContractOperations[Id]['query'];
        body: WithExtra<ContractOperations[Id]['body'], Extra>;
        /** The operation's declared header parameters that were sent, by lower-case name (src/contract/validate.ts). */
        headers?: Record<string, string>;
      }
    : never
  : { ctx: Context; caller: Caller; path: Record<string, string>; query: Record<string, unknown>; body: unknown; headers?: Record<string, string> };

/** A body with the fields an operation accepts beyond its schema (`extraBodyFields`), unknown until its handler checks them. */
type WithExtra<Body, Extra extends string> = [Extra] extends [never]
  ? Body
  : Body extends undefined
    ? Body
    : Body & ('*' extends Extra ? { [field: string]: unknown } : { [K in Extra]?: unknown });

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A streamed answer (a `text/event-stream` response of the contract): each item is one event,
   * sent as it comes (HTTP: `data: JSON` lines, server/sse.ts); in-process and over MCP, the list
   * of every event is the body. Errors found before the first event are thrown by the handler
   * (a JSON error answer); the stream itself only yields. docs/manual/ask.md#streamed-answers
   */
  events?: AsyncIterable<unknown>;
}

/** Collects a streamed answer's events into one list (in-process callers, MCP). */
export async function collectEvents(events: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const e of events) out.push(e);
  return out;
}

export interface Operation<Id extends OperationId = OperationId, Extra extends string = never> {
  operationId: Id;
  /** Called by invoke() only, with input the contract validated (hence typed as the operation's). */
  handler(req: OperationRequest<Id, Extra>): OperationResult | Promise<OperationResult>;
  /**
   * Body fields accepted beyond the pinned spec's, where API.md asks for one the 0.146.0 schema
   * lacks (e.g. site space `hidden`, in 0.167.0); the handler validates them itself. `'*'`: any
   * field (API.md: "other properties allowed").
   */
  extraBodyFields?: Extra[];
  /**
   * A read whose answer (200) is a function of the store's rows, the caller and the request's path
   * and query alone: no clock, no header, no worker's memory, nothing signed or random. The HTTP
   * server sends it again to the same token and URL until the store's next commit
   * (server/answers.ts); everything else about the request (authentication, limits) is done anew.
   */
  keepsAnswer?: boolean;
}

/**
 * Declares the handler of one contract operation, by its official operationId. Method, path,
 * parameters and schemas come from the contract; the handler adds only the behaviour, its input
 * typed as the operation's.
 */
export function defineOperation<Id extends OperationId, const Extra extends string = never>(
  operationId: Id,
  handler: (req: OperationRequest<Id, Extra>) => OperationResult | Promise<OperationResult>,
  options: { extraBodyFields?: Extra[]; keepsAnswer?: boolean } = {},
): Operation<Id, Extra> {
  return { operationId, handler, ...options };
}
