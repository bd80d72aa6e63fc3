import { slugify, uniqueTagSlug } from '../../kernel/slug.js';

// An OpenAPI document (3.x, or Swagger 2.0) read for an API reference: its operations grouped
// by tag, each with a stable slug (its address under the reference page), its parameters,
// request body, responses and code samples, and the servers a "Test it" request may go to.
// Built once per processed version (api/load.ts keeps it), never per request; `$ref`s are
// resolved when a part is drawn (schemas.ts), so a recursive or huge spec costs nothing here.

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface ApiParam {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  deprecated?: boolean;
  schema?: unknown;
  example?: unknown;
}

export interface ApiOperation {
  method: string;
  path: string;
  slug: string;
  tag: string;
  title: string;
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  params: ApiParam[];
  /** The request body (OpenAPI 3 requestBody, or a Swagger 2 `in: body` parameter), unresolved. */
  body?: { required: boolean; description?: string; content: Record<string, any> };
  responses: [string, any][];
  /** `x-codeSamples` / `x-code-samples`: shown before the generated ones. */
  samples: { lang: string; label: string; source: string }[];
  /** Security requirements (names of schemes) in effect; empty: none. */
  security: string[];
}

export interface ApiTag {
  name: string;
  slug: string;
  description?: string;
  ops: ApiOperation[];
}

export interface ApiSpec {
  title: string;
  version?: string;
  description?: string;
  /** Absolute http(s) server URLs (variables replaced by their defaults). */
  servers: string[];
  /** Their origins: what a page's CSP lets the browser connect to. */
  origins: string[];
  tags: ApiTag[];
  ops: ApiOperation[];
  /** The root document and the other files of the version (for `$ref`s into them). */
  root: any;
  files: Record<string, any>;
  securitySchemes: Record<string, any>;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);
const ORIGIN = /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/;

/** Follows `$ref`s (local `#/...`, or `file#/...` into another file of the version); bounded. */
export function deref(spec: Pick<ApiSpec, 'root' | 'files'>, v: any): { value: any; name?: string } {
  let name: string | undefined;
  for (let i = 0; i < 32 && v && typeof v === 'object' && typeof v.$ref === 'string'; i++) {
    const ref: string = v.$ref;
    const hash = ref.indexOf('#');
    const file = hash < 0 ? ref : ref.slice(0, hash);
    let doc = file ? spec.files[file] : spec.root;
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    name = decodeURIComponent(pointer.split('/').pop() ?? '') || file || name;
    for (const raw of pointer.split('/').slice(1)) {
      if (doc === undefined || doc === null || typeof doc !== 'object') break;
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      doc = Object.hasOwn(doc, key) ? doc[key] : undefined;
    }
    v = doc;
  }
  return { value: v && typeof v === 'object' && typeof v.$ref === 'string' ? undefined : v, name };
}

function serversOf(root: any, sourceUrl: string | undefined): string[] {
  const out: string[] = [];
  const add = (u: string) => {
    try {
      const abs = new URL(u, sourceUrl);
      if ((abs.protocol === 'http:' || abs.protocol === 'https:') && !abs.username && !abs.password) out.push(abs.href.replace(/\/$/, ''));
    } catch {
      /* a relative server without a source URL, or not a URL: no Test it there */
    }
  };
  if (Array.isArray(root.servers)) {
    for (const s of root.servers) {
      let url = str(s?.url);
      if (!url) continue;
      const vars = s.variables && typeof s.variables === 'object' ? s.variables : {};
      url = url.replace(/\{([^}]+)\}/g, (_m, k) => String(vars[k]?.default ?? ''));
      add(url);
    }
  } else if (typeof root.swagger === 'string' && str(root.host)) {
    const schemes: string[] = Array.isArray(root.schemes) && root.schemes.length ? root.schemes : ['https'];
    for (const scheme of schemes) add(`${scheme}://${root.host}${str(root.basePath) ?? ''}`);
  }
  return [...new Set(out)];
}

/** Builds the reference of a version's `filesystem` (`{fileName: document}`); the first file is the root. */
export function buildSpec(filesystem: Record<string, any>, sourceUrl?: string): ApiSpec {
  const names = Object.keys(filesystem);
  const root = filesystem[names[0]!] ?? {};
  const spec: ApiSpec = {
    title: str(root.info?.title) ?? 'API reference',
    version: str(root.info?.version),
    description: str(root.info?.description),
    servers: serversOf(root, sourceUrl),
    origins: [],
    tags: [],
    ops: [],
    root,
    files: filesystem,
    securitySchemes: (root.components?.securitySchemes ?? root.securityDefinitions ?? {}) as Record<string, any>,
  };
  spec.origins = [...new Set(spec.servers.map((u) => new URL(u).origin))].filter((o) => ORIGIN.test(o));
  const tags = new Map<string, ApiTag>();
  const tagSlugs = new Set<string>();
  const tag = (name: string) => {
    let t = tags.get(name);
    if (!t) {
      const slug = uniqueTagSlug(name, tagSlugs);
      const declared = Array.isArray(root.tags) ? root.tags.find((x: any) => x?.name === name) : undefined;
      t = { name: str(declared?.['x-displayName']) ?? name, slug, description: str(declared?.description), ops: [] };
      tags.set(name, t);
    }
    return t;
  };
  // Declared tags first, in their order (GitBook's navigation follows `tags`).
  if (Array.isArray(root.tags)) for (const t of root.tags) if (str(t?.name)) tag(t.name);
  const opSlugs = new Set<string>();
  const paths = root.paths && typeof root.paths === 'object' ? root.paths : {};
  for (const [path, rawItem] of Object.entries<any>(paths)) {
    const item = deref(spec, rawItem).value;
    if (!item || typeof item !== 'object') continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op || typeof op !== 'object') continue;
      if (op['x-hidden'] === true || op['x-internal'] === true) continue;
      const params = new Map<string, ApiParam>();
      let body: ApiOperation['body'];
      for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const p = deref(spec, raw).value;
        if (!p || typeof p !== 'object' || typeof p.name !== 'string') continue;
        if (p.in === 'body') {
          const types: string[] = Array.isArray(op.consumes) ? op.consumes : Array.isArray(root.consumes) ? root.consumes : ['application/json'];
          body = { required: !!p.required, description: str(p.description), content: Object.fromEntries(types.map((t) => [t, { schema: p.schema }])) };
          continue;
        }
        if (!['path', 'query', 'header', 'cookie'].includes(p.in)) continue;
        // Swagger 2 keeps the type on the parameter itself.
        const schema = p.schema ?? (p.type ? { type: p.type, items: p.items, enum: p.enum, format: p.format, default: p.default } : undefined);
        params.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: p.in === 'path' || !!p.required,
          description: str(p.description),
          deprecated: !!p.deprecated,
          schema,
          example: p.example ?? p['x-example'],
        });
      }
      if (op.requestBody) {
        const rb = deref(spec, op.requestBody).value;
        if (rb && typeof rb === 'object')
          body = { required: !!rb.required, description: str(rb.description), content: rb.content && typeof rb.content === 'object' ? rb.content : {} };
      }
      const tagName = Array.isArray(op.tags) && str(op.tags[0]) ? (op.tags[0] as string) : 'Other';
      const t = tag(tagName);
      const base = slugify(str(op.operationId) ?? `${method} ${path}`, 90, 'operation');
      let slug = base;
      for (let n = 2; opSlugs.has(slug); n++) slug = `${base}-${n}`;
      opSlugs.add(slug);
      const rawSamples = op['x-codeSamples'] ?? op['x-code-samples'];
      const security = Array.isArray(op.security) ? op.security : Array.isArray(root.security) ? root.security : [];
      const operation: ApiOperation = {
        method,
        path,
        slug,
        tag: t.slug,
        title: str(op.summary) ?? str(op.operationId) ?? `${method.toUpperCase()} ${path}`,
        operationId: str(op.operationId),
        summary: str(op.summary),
        description: str(op.description),
        deprecated: !!op.deprecated,
        params: [...params.values()],
        ...(body ? { body } : {}),
        responses: op.responses && typeof op.responses === 'object' ? Object.entries(op.responses) : [],
        samples: (Array.isArray(rawSamples) ? rawSamples : [])
          .filter((s: any) => typeof s?.source === 'string')
          .map((s: any) => ({
            lang: String(str(s.lang) ?? '').toLowerCase(),
            label: String(str(s.label) ?? str(s.lang) ?? 'Sample'),
            source: s.source as string,
          })),
        security: [...new Set(security.flatMap((r: any) => (r && typeof r === 'object' ? Object.keys(r) : [])))] as string[],
      };
      t.ops.push(operation);
      spec.ops.push(operation);
    }
  }
  spec.tags = [...tags.values()].filter((t) => t.ops.length);
  return spec;
}
