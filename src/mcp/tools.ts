import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OperationInput } from '../contract/validate.js';
import { DocsError } from '../kernel/errors.js';
import { MAX_BODY_BYTES } from '../kernel/limits.js';
import { packageRoot } from '../kernel/root.js';
import type { ToolEntry } from './tool-schema.js';

// The operation tools at run time: the list built at build time (generated/mcp/tools.json),
// filtered, and the mapping of a call's arguments back to the operation's input.

/** Short names accepted by --tools beside the areas' own (the CLI's topic names). */
const ALIASES: Record<string, string> = {
  cr: 'change-requests',
  'change-request': 'change-requests',
  pages: 'content',
  files: 'content',
  orgs: 'organizations',
  agent: 'agent-instructions',
  sections: 'sites',
};

let all: ToolEntry[] | undefined;
export function allTools(): ToolEntry[] {
  return (all ??= JSON.parse(readFileSync(join(packageRoot(), 'generated', 'mcp', 'tools.json'), 'utf8')) as ToolEntry[]);
}

export interface ToolFilter {
  readOnly?: boolean;
  /** Area names (or aliases); all areas when empty. */
  areas?: string[];
}

/** The tools a server exposes; an unknown area name is a usage error listing the known ones. */
export function selectTools(filter: ToolFilter = {}): ToolEntry[] {
  const tools = allTools();
  let wanted: Set<string> | undefined;
  if (filter.areas?.length) {
    const known = new Set(tools.map((t) => t.area));
    wanted = new Set();
    for (const raw of filter.areas) {
      const name = ALIASES[raw.trim()] ?? raw.trim();
      if (!known.has(name))
        throw new DocsError('invalid', `tools: unknown area ${raw} (areas: ${[...known].join(', ')}; aliases: ${Object.keys(ALIASES).join(', ')})`);
      wanted.add(name);
    }
  }
  return tools.filter((t) => (!filter.readOnly || t.method === 'GET') && (!wanted || wanted.has(t.area)));
}

/** The largest arguments a tool call takes: the HTTP API's body limit. */
export const MAX_ARGUMENT_BYTES = MAX_BODY_BYTES;

/** Maps flat tool arguments to the operation's path, query and body; validation is invoke's. */
export function toInput(tool: ToolEntry, args: Record<string, unknown> | undefined): OperationInput {
  const a = args ?? {};
  if (typeof a !== 'object' || Array.isArray(a)) throw new DocsError('invalid', 'arguments: must be an object');
  const size = Buffer.byteLength(JSON.stringify(a));
  if (size > MAX_ARGUMENT_BYTES) throw new DocsError('too_large', `arguments: larger than the limit of ${MAX_ARGUMENT_BYTES} bytes`);
  const path: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  let body: Record<string, unknown> | undefined;
  let whole: unknown;
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined) continue;
    if (tool.split.path.includes(k)) {
      if (typeof v !== 'string' && typeof v !== 'number') throw new DocsError('invalid', `path.${k}: must be string`);
      path[k] = String(v);
    } else if (tool.split.query.includes(k)) query[k] = v;
    else if (tool.split.body === 'fields') (body ??= {})[k] = v;
    else if (tool.split.body === 'body' && k === 'body') whole = v;
    else
      throw new DocsError(
        'invalid',
        `${k}: is not an argument of ${tool.name} (arguments: ${Object.keys(tool.inputSchema.properties ?? {}).join(', ') || 'none'})`,
      );
  }
  if (tool.split.body === 'fields' && !body && tool.split.bodyRequired) body = {};
  return { path, query, body: tool.split.body === 'body' ? whole : body };
}
