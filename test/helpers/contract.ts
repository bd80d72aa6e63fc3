import { expect } from 'vitest';
import { Router } from '../../src/contract/router.js';
import { operationSpec } from '../../src/contract/spec.js';
import { responseProblem } from '../../src/contract/validate.js';
import { OPERATIONS } from '../../src/operations.js';

const router = new Router(OPERATIONS.map((o) => o.operationId));

/**
 * Checks one HTTP answer against the contract: a success must be one of the operation's listed
 * statuses and match its schema; an error must carry the contract's error body with its status.
 */
export function expectContract(method: string, path: string, status: number, body: unknown, headers?: Headers) {
  if (status >= 400) {
    expect(body, `${method} ${path} -> ${status}`).toMatchObject({ error: { code: status, message: expect.any(String) } });
    expect(Object.keys(body as object)).toEqual(['error']);
    return;
  }
  const route = router.match(method, path.replace(/^\/v1/, '').split('?')[0]!);
  const op = operationSpec(route.operationId);
  const problem = responseProblem(op, status, body);
  expect(problem, `${method} ${path} -> ${status} against ${op.operationId}`).toBeUndefined();
  for (const h of headers ? op.responses[String(status)]?.headers ?? [] : []) {
    expect(headers?.get(h), `${op.operationId} ${status} header ${h}`).toBeTruthy();
  }
}
