import { uniqueTagSlug } from '../kernel/slug.js';

// The parts of an OpenAPI document the `builtin:openapi` source computes from: its info, its
// tags (declared ones first, in their order, then the ones operations name; an operation with no
// tag is under "Other") with their operations, and its schema names. Reads a version's
// `filesystem` (`{fileName: document}`, the first file is the root), as the API reference of a
// published site does (src/published/api/spec.ts); `$ref`d path items are followed within the root.

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface SpecOperation {
  method: string;
  path: string;
  title: string;
  deprecated: boolean;
}

export interface SpecTag {
  name: string;
  title: string;
  slug: string;
  description?: string;
  ops: SpecOperation[];
}

export interface SpecOutline {
  title: string;
  version?: string;
  description?: string;
  servers: string[];
  tags: SpecTag[];
  schemas: string[];
  /** Webhooks (OpenAPI 3.1 `webhooks`), by name: the first method each declares. */
  webhooks: { name: string; method: string }[];
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

function local(root: any, v: any): any {
  for (let i = 0; i < 16 && v && typeof v === 'object' && typeof v.$ref === 'string' && v.$ref.startsWith('#/'); i++) {
    let doc = root;
    for (const raw of v.$ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      doc = doc && typeof doc === 'object' && Object.hasOwn(doc, key) ? doc[key] : undefined;
    }
    v = doc;
  }
  return v;
}

export function outline(filesystem: Record<string, any>): SpecOutline {
  const root = filesystem[Object.keys(filesystem)[0]!] ?? {};
  const tags = new Map<string, SpecTag>();
  const slugs = new Set<string>();
  const tag = (name: string) => {
    let t = tags.get(name);
    if (!t) {
      const slug = uniqueTagSlug(name, slugs);
      const declared = Array.isArray(root.tags) ? root.tags.find((x: any) => x?.name === name) : undefined;
      t = { name, title: str(declared?.['x-displayName']) ?? name, slug, description: str(declared?.description), ops: [] };
      tags.set(name, t);
    }
    return t;
  };
  if (Array.isArray(root.tags)) for (const t of root.tags) if (str(t?.name)) tag(t.name);
  const paths = root.paths && typeof root.paths === 'object' ? root.paths : {};
  for (const [path, raw] of Object.entries<any>(paths)) {
    const item = local(root, raw);
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op !== 'object' || op['x-hidden'] === true || op['x-internal'] === true) continue;
      const name = Array.isArray(op.tags) && str(op.tags[0]) ? (op.tags[0] as string) : 'Other';
      tag(name).ops.push({
        method,
        path,
        title: str(op.summary) ?? str(op.operationId) ?? `${method.toUpperCase()} ${path}`,
        deprecated: op.deprecated === true,
      });
    }
  }
  const schemas = root.components?.schemas ?? root.definitions;
  return {
    title: str(root.info?.title) ?? 'API reference',
    version: str(root.info?.version),
    description: str(root.info?.description),
    servers: Array.isArray(root.servers) ? root.servers.map((s: any) => str(s?.url)).filter((u: unknown): u is string => !!u) : [],
    tags: [...tags.values()].filter((t) => t.ops.length),
    schemas: schemas && typeof schemas === 'object' ? Object.keys(schemas) : [],
    webhooks: Object.entries<any>(root.webhooks && typeof root.webhooks === 'object' ? root.webhooks : {}).flatMap(([name, raw]) => {
      const item = local(root, raw);
      const method = item && typeof item === 'object' ? METHODS.find((m) => item[m] && typeof item[m] === 'object') : undefined;
      return method ? [{ name, method }] : [];
    }),
  };
}
