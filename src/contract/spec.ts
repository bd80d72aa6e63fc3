import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocsError } from '../kernel/errors.js';
import { packageRoot } from '../kernel/root.js';

// The contract, read from the per-operation files that scripts/build-contract.mjs extracts
// from the pinned spec at build time: looking up one operation reads one small file.

export type JsonSchema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  path: string;
  /** Which package the operation comes from (0.146.0, or the latest for the two it lacks). */
  source: string;
  dialect: 'draft-07' | '2020-12';
  deprecated: boolean;
  summary: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; contentType: string; schema: JsonSchema };
  responses: Record<string, { contentType: string | null; schema: JsonSchema | null; headers: string[] }>;
  components: { schemas: Record<string, JsonSchema> };
}

const dir = () => join(packageRoot(), 'generated', 'contract');
const cache = new Map<string, OperationSpec>();

/** What reading the contract did (tests): operation files read whole, components read apart. */
export const specReads = { whole: 0, heads: 0, components: 0 };

const readOp = (folder: string, operationId: string) => JSON.parse(readFileSync(join(dir(), folder, operationId + '.json'), 'utf8'));

/**
 * An operation of the contract. Its components (the schemas its parameters, body and responses
 * refer to: ~95% of its file, repeated in every operation's) are read when first asked for: the
 * first request of an operation without a body reads `ops-head/<id>.json` (~0.5 KB) only, where
 * the whole file took ~0.4 ms of CPU to read and parse (docs/manual/performance.md, "First
 * requests"). A build without heads reads the whole file.
 */
export function operationSpec(operationId: string): OperationSpec {
  let op = cache.get(operationId);
  if (!op) {
    if (!/^[A-Za-z0-9]+$/.test(operationId)) throw new DocsError('bug', `bad operationId ${operationId}`);
    try {
      op = withLazyComponents(readOp('ops-head', operationId) as OperationSpec);
      specReads.heads++;
    } catch (err: any) {
      if (err.code !== 'ENOENT') throw err;
      try {
        op = readOp('ops', operationId) as OperationSpec;
        specReads.whole++;
      } catch (err: any) {
        if (err.code === 'ENOENT') throw new DocsError('bug', `operation ${operationId} is not in the contract`);
        throw err;
      }
    }
    cache.set(operationId, op);
  }
  return op;
}

/** `components`, read from the operation's whole file on first access, then kept as a plain property. */
function withLazyComponents(head: OperationSpec): OperationSpec {
  Object.defineProperty(head, 'components', {
    configurable: true,
    enumerable: true,
    get() {
      const components = readOp('ops', head.operationId).components as OperationSpec['components'];
      specReads.components++;
      Object.defineProperty(head, 'components', { value: components, configurable: true, enumerable: true, writable: true });
      return components;
    },
    set(value: OperationSpec['components']) {
      Object.defineProperty(head, 'components', { value, configurable: true, enumerable: true, writable: true });
    },
  });
  return head;
}

/** [method, path, operationId, packages] for the other operations of either spec (not in the contract's files). */
export type OtherRouteEntry = [string, string, string, string[]];
export function otherRoutes(): OtherRouteEntry[] {
  try {
    return JSON.parse(readFileSync(join(dir(), 'other-routes.json'), 'utf8')) as OtherRouteEntry[];
  } catch {
    return []; // a build from before the file: those paths stay 404
  }
}

/** [method, path, operationId] for every operation of the contract. */
export type RouteEntry = [string, string, string];
let routes: RouteEntry[] | undefined;
export function contractRoutes(): RouteEntry[] {
  return (routes ??= JSON.parse(readFileSync(join(dir(), 'routes.json'), 'utf8')) as RouteEntry[]);
}
