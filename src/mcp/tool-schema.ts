import type { JsonSchema, OperationSpec } from '../contract/spec.js';

// One MCP tool per registered operation, derived from the contract alone (no handler): run at
// build time by scripts/build-mcp-tools.mjs, so `tools/list` reads one JSON file at run time.

/** How a tool's flat arguments map back to the operation's path, query and body. */
export interface ArgumentSplit {
  path: string[];
  query: string[];
  /** 'fields': the body's fields are top-level arguments; 'body': the whole body is the `body` argument. */
  body: 'none' | 'fields' | 'body';
  /** The operation requires a body: with 'fields' and none given, `{}` is sent, so the error names the missing field. */
  bodyRequired: boolean;
}

export interface ToolEntry {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
  /** Not part of MCP's tool: where the tool's arguments go, its HTTP method and its area. */
  method: string;
  area: string;
  split: ArgumentSplit;
}

const REF = '#/components/schemas/';

/** The body schema's target when it is a plain object (the same test as validate.ts's knownFields). */
function plainObject(op: OperationSpec): JsonSchema | undefined {
  let s = op.requestBody?.schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = op.components.schemas[String(s.$ref).slice(REF.length)];
  if (s?.type !== 'object' || !s.properties || s.oneOf || s.anyOf || s.allOf) return undefined;
  return s;
}

/** Rewrites `#/components/schemas/X` to `#/$defs/X` and collects the definitions reached. */
function withDefs(op: OperationSpec, root: JsonSchema): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  const rewrite = (node: any): any => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    const out: any = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
        const name = v.slice(REF.length);
        if (!(name in defs)) {
          defs[name] = {}; // placeholder first: schemas may refer to themselves
          defs[name] = rewrite(op.components.schemas[name] ?? {});
        }
        out.$ref = '#/$defs/' + name;
      } else out[k] = rewrite(v);
    }
    return out;
  };
  const schema = rewrite(root);
  return Object.keys(defs).length ? { ...schema, $defs: defs } : schema;
}

export function toolFor(op: OperationSpec, area: string): ToolEntry {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const split: ArgumentSplit = { path: [], query: [], body: 'none', bodyRequired: !!op.requestBody?.required };
  for (const p of op.parameters) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    split[p.in].push(p.name);
    properties[p.name] = { ...p.schema, description: p.schema.description ?? `${p.in} parameter ${p.name}` };
    if (p.in === 'path' || p.required) required.push(p.name);
  }
  if (op.requestBody) {
    const flat = plainObject(op);
    const clash = flat && Object.keys(flat.properties).some((k) => k in properties || k === 'body');
    if (flat && !clash) {
      split.body = 'fields';
      Object.assign(properties, flat.properties);
      if (op.requestBody.required) required.push(...((flat.required as string[] | undefined) ?? []));
    } else {
      split.body = 'body';
      properties.body = { ...op.requestBody.schema, description: 'The request body' };
      if (op.requestBody.required) required.push('body');
    }
  }
  const inputSchema = withDefs(op, { type: 'object', properties, ...(required.length ? { required } : {}) });
  const method = op.method.toUpperCase();
  return {
    name: op.operationId,
    description: `${op.summary || op.operationId} (${method} ${op.path})`,
    inputSchema,
    annotations: {
      title: op.summary || op.operationId,
      readOnlyHint: method === 'GET',
      destructiveHint: method === 'DELETE',
      idempotentHint: method === 'GET' || method === 'PUT' || method === 'DELETE',
    },
    method,
    area,
    split,
  };
}

/**
 * An area's name: the folder of its module (`./change-requests/review-operations.js`), read from
 * its loader (src/operations.ts names areas by their folder; a test checks every area has one).
 */
export function areaName(load: () => unknown): string {
  const m = /\/([a-z0-9-]+)\/[a-z-]*operations\.[jt]s['"]/.exec(String(load));
  if (!m) throw new Error(`cannot tell the area of ${String(load)}`);
  return m[1]!;
}
