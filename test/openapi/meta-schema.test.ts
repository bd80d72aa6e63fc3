import { describe, expect, it } from 'vitest';
import { metaSchemaCompiles } from '../../src/openapi/meta-schema.js';
import { processSource } from '../../src/openapi/pipeline.js';

const doc = (version: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ openapi: version, info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } }, ...extra });

describe('the OpenAPI meta-schema is compiled once per process (src/openapi/meta-schema.ts)', () => {
  it('validates many documents of each version with one compile of each meta-schema, and still refuses invalid ones', async () => {
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
    // The shared validators were used (the parser's own calls were answered by them: 3.0 and 3.1
    // at least), and compiled at most once per meta-schema, whatever ran before in this process.
    expect(metaSchemaCompiles()).toBeGreaterThanOrEqual(2);
    expect(metaSchemaCompiles() - before).toBeLessThanOrEqual(2);
    expect(metaSchemaCompiles()).toBeLessThanOrEqual(3);
  });
});
