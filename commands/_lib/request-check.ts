import { operationSpec } from '../../src/contract/spec.js';
import { validateInput, type OperationInput } from '../../src/contract/validate.js';
import { DocsError } from '../../src/kernel/errors.js';
import { argName } from './cli-errors.js';

// Bad input is refused before anything is sent: a request is checked against the contract in
// the CLI (the same validation the server runs, strict customization fields included), and the
// error names what the user typed (--limit, --set styling.x, SPACE_ID), not the request's field.

/** How a request's fields were given: query/body field -> flag ("--limit"); path parameter -> argument. */
export interface Given {
  query?: Record<string, string>;
  body?: Record<string, string>;
  /** Where a body field no flag names came from (e.g. "--input"). */
  bodySource?: string;
}

/** Throws exit 2 naming the flag and the rule when `input` breaks the contract of `operationId`. */
export function checkRequest(operationId: string, input: OperationInput, given: Given = {}, command?: string): void {
  try {
    // '*': top-level fields beyond the contract are left to the server (our documented extensions).
    validateInput(operationSpec(operationId), { path: input.path ?? {}, query: input.query ?? {}, body: input.body, headers: input.headers }, ['*']);
  } catch (err) {
    if (!(err instanceof DocsError) || err.kind !== 'invalid') throw err;
    throw new DocsError('invalid', `${inFlags(err.message, given)}${command ? ` (see docs ${command.replace(/:/g, ' ')} --help)` : ''}`);
  }
}

/** "query.limit: must be <= 1000" -> "--limit: must be <= 1000"; "body.styling.x: ..." -> "--styling (styling.x): ...". */
export function inFlags(message: string, given: Given): string {
  const m = /^(path|query|body)((?:\.[^\s:]+)?): ([\s\S]*)$/.exec(message);
  if (!m) return message;
  const [, where, dotted, rule] = m;
  const field = dotted!.slice(1);
  const top = field.split(/[.[]/)[0]!;
  if (where === 'path' && top) return `${argName(top)}: ${rule}`;
  const flag = top ? given[where as 'query' | 'body']?.[top] : undefined;
  if (flag && field === top && rule === 'is required') return `missing flag ${flag}`;
  if (flag) return `${flag}${field !== top ? ` (${field})` : ''}: ${rule}`;
  if (where === 'body' && given.bodySource) return `${given.bodySource}: ${field || 'the body'}: ${rule}`;
  return message;
}
