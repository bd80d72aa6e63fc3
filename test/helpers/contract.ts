import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Router } from '../../src/contract/router.js';
import { operationSpec, type OperationSpec } from '../../src/contract/spec.js';
import { responseProblem } from '../../src/contract/validate.js';
import { packageRoot } from '../../src/kernel/root.js';
import { OPERATIONS } from '../../src/operations.js';

const router = new Router(OPERATIONS.map((o) => o.operationId));

// The contract is both specs (docs/manual/contract.md#the-newest-spec-is-part-of-the-contract): an answer must be valid under the pinned
// @gitbook/api 0.146.0 wherever it has the operation, and under 0.202.0 (what `npm install
// @gitbook/api` gives today) wherever that has it. The newest spec's response schemas are
// extracted at build by scripts/build-contract.mjs into generated/contract/latest/.

const latestCache = new Map<string, OperationSpec | undefined>();
/** The operation as 0.202.0 answers it (responses only), or undefined where 0.202.0 lacks it. */
export function latestSpec(operationId: string): OperationSpec | undefined {
  if (!latestCache.has(operationId)) {
    let op: OperationSpec | undefined;
    try {
      op = { parameters: [], ...JSON.parse(readFileSync(join(packageRoot(), 'generated', 'contract', 'latest', operationId + '.json'), 'utf8')) };
    } catch (err: any) {
      if (err.code !== 'ENOENT') throw err;
    }
    latestCache.set(operationId, op);
  }
  return latestCache.get(operationId);
}

/**
 * Where the two specs contradict each other, 0.202.0 wins: the pinned spec's check is skipped for
 * these (operationId -> statuses, '*' for every one). Each is listed in docs/manual/contract.md
 * with its reason; keep both lists the same.
 */
export const LATEST_WINS: Record<string, readonly string[]> = {
  // 0.146.0 answers 201, 0.202.0 200: the newest status is the one served.
  cancelImportRun: ['200'],
  // A level given on the site itself (inviteToSite) has a `site` origin, which only 0.202.0 knows
  // (0.146.0's origin is a space or the organization): the newest shape is the one served.
  listPermissionsAggregateInSite: ['200'],
  // A site's external links are items of its structure in 0.202.0 only (0.146.0's structure
  // holds sections and groups): the structure carries them (docs/manual/site-agents.md#external-links).
  getSiteStructure: ['200'],
  // Agent feedback is recorded as 0.202.0's `agent_feedback` event, a type 0.146.0's enum lacks:
  // an aggregation by event type names it (docs/manual/site-agents.md#agent-feedback).
  aggregateSiteEvents: ['200'],
};

export interface ContractCheck {
  operationId: string;
  /** The problem under each spec that has the operation (undefined: valid); absent: the spec lacks it or 0.202.0 wins. */
  pinned?: string;
  latest?: string;
  checked: { pinned: boolean; latest: boolean };
}

/** A success answer checked against both specs, without asserting: for sweeps that count. */
export function contractCheck(method: string, path: string, status: number, body: unknown): ContractCheck {
  const route = router.match(method, path.replace(/^\/v1/, '').split('?')[0]!);
  const pinned = operationSpec(route.operationId);
  const latest = latestSpec(route.operationId);
  const overruled = latest && (LATEST_WINS[route.operationId]?.includes(String(status)) || LATEST_WINS[route.operationId]?.includes('*'));
  const out: ContractCheck = { operationId: route.operationId, checked: { pinned: !overruled, latest: !!latest } };
  if (!overruled) out.pinned = problem(pinned, status, body);
  if (latest) out.latest = problem(latest, status, body);
  return out;
}

/**
 * The problem of an answer under one spec; a `text/event-stream` answer (given as the list of its
 * events) is checked event by event against the response's schema, which describes one event.
 */
function problem(op: OperationSpec, status: number, body: unknown): string | undefined {
  const r = op.responses[String(status)];
  if (r?.contentType !== 'text/event-stream') return responseProblem(op, status, body);
  if (!Array.isArray(body)) return `${op.operationId} answers text/event-stream: expected the list of its events, got ${JSON.stringify(body)?.slice(0, 200)}`;
  for (const [i, e] of body.entries()) {
    const p = responseProblem(op, status, e);
    if (p) return `event ${i}: ${p}`;
  }
  return undefined;
}

type Sink = (method: string, path: string, status: number, check: ContractCheck) => void;
let sink: Sink | undefined;
/**
 * While set, success answers seen by `expectContract` (so by every `s.api` call) are handed to
 * `record` instead of asserted: a sweep counts invalid bodies per spec rather than stopping at
 * the first. Returns the function that restores asserting.
 */
export function recordContract(record: Sink): () => void {
  sink = record;
  return () => {
    if (sink === record) sink = undefined;
  };
}

/**
 * Checks one HTTP answer against the contract: a success must be one of the operation's listed
 * statuses and match its schema, under both specs; an error must carry the contract's error body
 * with its status.
 */
export function expectContract(method: string, path: string, status: number, body: unknown, headers?: Headers) {
  if (status >= 400) {
    expect(body, `${method} ${path} -> ${status}`).toMatchObject({ error: { code: status, message: expect.any(String) } });
    expect(Object.keys(body as object)).toEqual(['error']);
    return;
  }
  const c = contractCheck(method, path, status, body);
  if (sink) return sink(method, path, status, c);
  expect(c.pinned, `${method} ${path} -> ${status} against ${c.operationId} of ${operationSpec(c.operationId).source}`).toBeUndefined();
  expect(c.latest, `${method} ${path} -> ${status} against ${c.operationId} of ${latestSpec(c.operationId)?.source}`).toBeUndefined();
  if (!headers) return;
  const listed = new Set<string>();
  if (c.checked.pinned) for (const h of operationSpec(c.operationId).responses[String(status)]?.headers ?? []) listed.add(h);
  for (const h of latestSpec(c.operationId)?.responses[String(status)]?.headers ?? []) listed.add(h);
  for (const h of listed) expect(headers.get(h), `${c.operationId} ${status} header ${h}`).toBeTruthy();
}
