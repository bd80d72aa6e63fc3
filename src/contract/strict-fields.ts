import type { JsonSchema } from './spec.js';

// The spec's object schemas leave `additionalProperties` open: a body with a typo in a nested
// field ("styling.primaryColour") passes the schema and the typo is stored, silently changing
// nothing. For bodies where that matters (customizations: deep, many similar names), every
// field at every depth must be one the schema declares. Where the schema branches (oneOf,
// anyOf), a field declared by any branch is accepted; an object the schema leaves open (no
// `properties`, or an `additionalProperties` schema: maps) is not looked into.

type Schemas = Record<string, JsonSchema>;

function deref(schema: JsonSchema | undefined, schemas: Schemas): JsonSchema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 20; i++) s = schemas[String(s.$ref).split('/').pop()!] ?? {};
  return s;
}

/** The alternatives a value may match: oneOf/anyOf flattened, allOf merged into one object shape. */
function shapes(schema: JsonSchema | undefined, schemas: Schemas, depth = 0): JsonSchema[] {
  const s = deref(schema, schemas);
  if (depth > 20) return [{}];
  const branches = s.oneOf ?? s.anyOf;
  if (branches) return branches.flatMap((b: JsonSchema) => shapes(b, schemas, depth + 1));
  if (s.allOf) {
    const parts = s.allOf.flatMap((p: JsonSchema) => shapes(p, schemas, depth + 1)) as JsonSchema[];
    const open = parts.some((p) => isOpen(p) && (p.type === 'object' || p.additionalProperties !== undefined));
    const properties = Object.assign({}, s.properties, ...parts.map((p) => p.properties ?? {}));
    return [{ type: 'object', ...(open ? { additionalProperties: true } : {}), properties }];
  }
  return [s];
}

const isOpen = (s: JsonSchema) => !s.properties || (s.additionalProperties !== undefined && s.additionalProperties !== false);

export interface UnknownField {
  /** Dot path of the field ("styling.primaryColour", "header.links.0.titel"). */
  path: string;
  /** The fields declared where it stands. */
  known: string[];
}

/** The first field of `value` that `schema` does not declare; undefined when every field is known. */
export function unknownField(schema: JsonSchema | undefined, value: unknown, schemas: Schemas, at = ''): UnknownField | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const candidates = shapes(schema, schemas);
  if (Array.isArray(value)) {
    const items = candidates.filter((c) => c.items).map((c) => c.items as JsonSchema);
    if (!items.length) return undefined;
    for (const [i, v] of value.entries()) {
      const found = items.map((it) => unknownField(it, v, schemas, `${at}.${i}`));
      if (found.every(Boolean)) return found[0];
    }
    return undefined;
  }
  const objects = candidates.filter((c) => c.type === 'object' || c.properties || (Array.isArray(c.type) && c.type.includes('object')));
  if (!objects.length || objects.some(isOpen)) return undefined;
  for (const [k, v] of Object.entries(value as object)) {
    const path = at ? `${at}.${k}` : k;
    const declared = objects.filter((c) => Object.hasOwn(c.properties, k)).map((c) => c.properties[k] as JsonSchema);
    if (!declared.length) return { path, known: [...new Set(objects.flatMap((c) => Object.keys(c.properties)))] };
    const found = declared.map((d) => unknownField(d, v, schemas, path));
    if (found.every(Boolean)) return found[0];
  }
  return undefined;
}
