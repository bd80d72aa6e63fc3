import type { JsonSchema, OperationSpec } from '../../src/contract/spec.js';

/**
 * A small valid instance of a contract schema (required fields only, first enum value, minimal
 * lengths), so generated tests get past input validation and reach the handler's own rules.
 */
export function sample(op: OperationSpec, schema: JsonSchema | undefined, depth = 0): unknown {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 20; i++) s = op.components.schemas[String(s.$ref).split('/').pop()!] ?? {};
  if (depth > 8) return undefined;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((e: unknown) => e !== null) ?? s.enum[0];
  if (s.oneOf || s.anyOf) {
    const branch = sample(op, (s.oneOf ?? s.anyOf)[0], depth + 1);
    if (!s.properties) return branch;
    // Fields of its own beside the alternatives (inviteToSpace: a role, and users or teams): both.
    const { oneOf: _o, anyOf: _a, ...own } = s;
    const base = sample(op, own, depth + 1) as Record<string, unknown>;
    return branch && typeof branch === 'object' && !Array.isArray(branch) ? { ...base, ...branch } : base;
  }
  if (s.allOf) {
    return s.allOf.reduce((acc: any, part: JsonSchema) => {
      const v = sample(op, part, depth + 1);
      return v && typeof v === 'object' && !Array.isArray(v) ? { ...acc, ...v } : acc;
    }, {});
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    const out: Record<string, unknown> = {};
    const names = [...(s.required ?? [])];
    // minProperties: add declared fields until there are enough.
    for (const name of Object.keys(s.properties ?? {})) if (names.length < (s.minProperties ?? 0) && !names.includes(name)) names.push(name);
    for (const name of names) out[name] = sample(op, s.properties?.[name], depth + 1);
    return out;
  }
  if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => sample(op, s.items, depth + 1));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'string') {
    if (s.format === 'uri') return 'https://example.com/x';
    if (s.format === 'email') return 'someone@example.com';
    if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
    if (s.format === 'emoji') return '🎉';
    if (s.format === 'icon') return 'gear';
    const plain = 'sample-value'.padEnd(s.minLength ?? 0, 'x').slice(0, s.maxLength ?? 64);
    // A pattern: the first of a few usual shapes that fits it (a path, a color, a slug...).
    if (typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern, 'u');
      return [plain, '/sample', '#336699', 'sample', 'a', '1'].find((c) => re.test(c)) ?? plain;
    }
    return plain;
  }
  return {};
}

/** The required query parameters of an operation, each with a sample value, as a query string ("" for none). */
export function requiredQuery(op: OperationSpec): string {
  const q = new URLSearchParams();
  for (const p of op.parameters ?? []) if (p.in === 'query' && p.required) q.set(p.name, String(sample(op, p.schema)));
  const text = q.toString();
  return text ? `?${text}` : '';
}
