import { operationSpec } from './contract/spec.js';
import { validateInput, type OperationInput } from './contract/validate.js';
import type { Caller, Context } from './kernel/context.js';
import { asDocsError, DocsError } from './kernel/errors.js';
import type { OperationResult } from './kernel/operation.js';
import { OPERATIONS_BY_ID } from './operations.js';

export interface InvokeResult extends OperationResult {
  /** Set when the result is an error, so in-process callers can rethrow it as it was. */
  error?: DocsError;
}

/**
 * The single entrance to the domain, for the HTTP server and both CLI transports alike:
 * authenticate, validate against the contract, run the handler, and map any error to the
 * contract's error body. Nothing runs before validation passes, so bad input changes nothing.
 */
export function invoke(ctx: Context, operationId: string, input: OperationInput, caller: Caller | undefined): InvokeResult | Promise<InvokeResult> {
  // Synchronous when the handler is (reads): no promise and no extra event-loop turn on the
  // hot path. Callers may always `await` the result.
  try {
    const op = OPERATIONS_BY_ID.get(operationId);
    if (!op) throw new DocsError('not_found', `operation ${operationId} is not available on this server`);
    if (!caller) throw new DocsError('unauthenticated', 'authentication required: send Authorization: Bearer <token>');
    const valid = validateInput(operationSpec(operationId), input, op.extraBodyFields);
    const out = op.handler({ ctx, caller, ...valid });
    return out instanceof Promise ? out.catch(failure) : out;
  } catch (err) {
    return failure(err);
  }
}

function failure(err: unknown): InvokeResult {
  const e = asDocsError(err);
  if (e.kind === 'bug' && process.env.DEBUG) console.error(err);
  return { status: e.status, body: e.toBody(), error: e };
}
