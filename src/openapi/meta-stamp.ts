import { createHash } from 'node:crypto';

/**
 * The stamp of a precompiled OpenAPI meta-schema validator (scripts/build-meta-schemas.mjs, which
 * imports this from dist/): the SHA-256 of the Ajv options that shape its code and of the schema's
 * JSON, as the parser hands it over. A module whose stamp differs at run time is not used.
 */
export function metaSchemaStamp(schema: unknown, opts: Record<string, unknown>): string {
  return createHash('sha256')
    .update(JSON.stringify([opts.allErrors, opts.strict, opts.validateFormats, opts.$data, opts.unicodeRegExp, opts.schemaId]))
    .update(JSON.stringify(schema))
    .digest('hex');
}
