import { afterEach, describe, expect, it, vi } from 'vitest';
import { diffSpecs } from '../../src/openapi/diff/classify.js';
import { SchemaDiff } from '../../src/openapi/diff/schema.js';

// allOf parts that share parts: each schema's allOf is merged once per side, not once per path to
// it. Merged again for each path, a spec of a few kilobytes made the merge exponential (width 3,
// depth 10: 3^10 merges a side; depth 16 would not finish), and `openapi diff` / `openapi put`
// against a spec someone else stored would never end.
const side = (doc: unknown) => ({ root: 'openapi.json', files: { 'openapi.json': doc } });

function layered(depth: number, width: number, topType: string): any {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++)
    for (let j = 0; j < width; j++)
      schemas[`L${i}_${j}`] = {
        allOf: Array.from({ length: width }, (_, k) => ({ $ref: `#/components/schemas/${i + 1 === depth ? 'Leaf' : `L${i + 1}_${k}`}` })),
        properties: { [`p${i}_${j}`]: { type: i === 0 ? topType : 'string' } },
      };
  schemas.Leaf = { type: 'object', properties: { leaf: { type: 'string' } } };
  return {
    openapi: '3.0.3',
    components: { schemas },
    paths: {
      '/x': {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/L0_0' } } } },
          responses: { 204: { description: 'ok' } },
        },
      },
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('openapi diff: allOf merges', () => {
  it('merge each schema once per side, whatever the number of paths to it', () => {
    const flatten = vi.spyOn(SchemaDiff.prototype as any, 'flatten');
    const d = diffSpecs(side(layered(10, 3, 'string')), side(layered(10, 3, 'integer')));
    expect(d.changes.map((c) => [c.id, c.field])).toEqual([['request-type-changed', 'p0_0']]);
    // 31 schemas a side, each part met once per allOf listing it: 3 x 30 + the first call, x 2 sides.
    expect(flatten.mock.calls.length).toBeLessThan(400);
  });

  it('an allOf cycle ends, and the properties on the way are merged', () => {
    const spec = (t: string): any => ({
      openapi: '3.0.3',
      components: {
        schemas: {
          A: { allOf: [{ $ref: '#/components/schemas/B' }], properties: { a: { type: t } } },
          B: { allOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/A' }], properties: { b: { type: 'string' } } },
        },
      },
      paths: {
        '/x': {
          post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } }, responses: { 204: { description: 'ok' } } },
        },
      },
    });
    const d = diffSpecs(side(spec('string')), side(spec('integer')));
    expect(d.changes.map((c) => [c.id, c.field])).toEqual([['request-type-changed', 'a']]);
  });
});
