import { operationSpec } from './contract/spec.js';
import { validateInput, type OperationInput } from './contract/validate.js';
import { contextBase, type Caller, type Context } from './kernel/context.js';
import { asDocsError, DocsError } from './kernel/errors.js';
import { storageError } from './store/storage-error.js';
import type { OperationRequest, OperationResult } from './kernel/operation.js';
import type { OperationId } from './contract/types.js';
import { loadedOperation, loadOperation } from './operations.js';
import type { Operation } from './kernel/operation.js';
import { auditHook } from './audit/record.js';
import { hookedStore } from './kernel/write-scope.js';

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
  // Synchronous when the operation's area is loaded and the handler is synchronous (reads): no
  // promise and no extra event-loop turn on the hot path. Callers may always `await` the result.
  const op = loadedOperation(operationId);
  if (op) return run(ctx, op, input, caller);
  return loadOperation(operationId).then((loaded) =>
    loaded ? run(ctx, loaded, input, caller) : failure(new DocsError('not_found', `operation ${operationId} is not available on this server`)),
  );
}

function run(ctx: Context, op: Operation, input: OperationInput, caller: Caller | undefined): InvokeResult | Promise<InvokeResult> {
  try {
    if (!caller) throw new DocsError('unauthenticated', 'authentication required: send Authorization: Bearer <token>');
    const spec = operationSpec(op.operationId);
    const valid = validateInput(spec, input, op.extraBodyFields);
    // Valid against this operation's schemas, so of its input types (OperationRequest).
    const request = { ctx, caller, ...valid } as OperationRequest<OperationId>;
    // A scoped token (an installation's, a published URL's) is held to its scope here, before
    // the handler, which then checks its user's rights as for anyone: it can do no more than
    // both allow (docs/manual/integrations.md#scoped-callers). Loaded only for such callers.
    // A write operation runs in an audit scope: each write it commits carries its audit event in
    // the same transaction (src/audit/record.ts, docs/manual/audit.md). Reads run as they are.
    const handle = spec.method === 'GET' || AUDIT_OFF ? () => op.handler(request) : () => audited(ctx, op, request, spec.method, caller);
    if (caller.scope) {
      return import('./integrations/scoped.js')
        .then((m) => m.checkScope(ctx, spec, valid.path ?? {}, caller))
        .then(handle)
        .catch((err) => failure(onDisk(ctx, err)));
    }
    const out = handle();
    return out instanceof Promise ? out.catch((err) => failure(onDisk(ctx, err))) : out;
  } catch (err) {
    return failure(onDisk(ctx, err));
  }
}

/** DOCS_AUDIT=off when the process starts records nothing: only to measure what recording costs (bench/audit-writes.mjs). */
const AUDIT_OFF = process.env.DOCS_AUDIT === 'off';

function audited(ctx: Context, op: Operation, request: OperationRequest<OperationId>, method: string, caller: Caller): ReturnType<Operation['handler']> {
  const scope = auditHook(ctx, { operationId: op.operationId, method, path: (request.path ?? {}) as Record<string, string>, caller });
  // The call's own context: the same but for a store whose writes carry this call's events.
  const own: Context = { ...ctx, base: contextBase(ctx), store: hookedStore(ctx.store, scope) };
  let out: ReturnType<Operation['handler']>;
  try {
    out = op.handler({ ...request, ctx: own });
  } catch (err) {
    scope.close();
    throw err;
  }
  if (!(out instanceof Promise)) {
    scope.close();
    return out;
  }
  return out.finally(() => scope.close());
}

/** A disk error of a file beside the store (a blob, a PDF: a full disk) names its cause and the data directory (503). */
const onDisk = (ctx: Context, err: unknown) => (ctx.dataDir ? storageError(err, ctx.dataDir) : err);

function failure(err: unknown): InvokeResult {
  const e = asDocsError(err);
  if (e.kind === 'bug' && process.env.DEBUG) console.error(err);
  return { status: e.status, body: e.toBody(), error: e };
}
