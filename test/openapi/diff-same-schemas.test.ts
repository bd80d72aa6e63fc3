import { afterEach, describe, expect, it, vi } from 'vitest';
import { diffSpecs } from '../../src/openapi/diff/classify.js';
import { SchemaDiff } from '../../src/openapi/diff/schema.js';

// An inline schema with the same JSON on both sides is compared for the references it reaches
// only (SchemaDiff.compareSame, issue 30): a shortcut, so the changes must be those of the whole
// comparison (compareResolved), in the same order, on schemas made to hit its edges (allOf,
// alternatives, readOnly/writeOnly by reference, object-valued keywords compared by identity).

const side = (doc: unknown) => ({ root: 'openapi.json', files: { 'openapi.json': doc } });
const proto = SchemaDiff.prototype as any;

afterEach(() => {
  vi.restoreAllMocks();
});

function spec(pet: unknown, body: unknown): any {
  return {
    openapi: '3.0.3',
    components: { schemas: { Pet: pet } },
    paths: {
      '/pets': {
        post: {
          requestBody: { content: { 'application/json': { schema: body } } },
          responses: { 200: { content: { 'application/json': { schema: body } } } },
        },
      },
    },
  };
}

describe('openapi diff: inline schemas with the same JSON on both sides', () => {
  it('are compared for the schemas they reference, not walked keyword by keyword', () => {
    const body = () => ({ type: 'object', properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } }, n: { type: 'integer' } } });
    const oldPet = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    const newPet = { type: 'object', properties: { id: { type: 'integer' } } };
    const whole = vi.spyOn(proto, 'compareResolved');
    const d = diffSpecs(side(spec(oldPet, body())), side(spec(newPet, body())));
    expect(d.changes.map((c) => [c.id, c.schema, c.operations])).toEqual([
      ['response-property-removed', 'Pet', ['POST /pets']],
      ['request-property-removed', 'Pet', ['POST /pets']],
    ]);
    // Pet in each direction (its two sides differ); the body, its array and its items never.
    expect(whole.mock.calls.map((c) => c[4])).toEqual(['request', 'response']);
  });

  it('an allOf in them is still merged and compared: its parts are references that may differ', () => {
    const body = () => ({ type: 'object', properties: { p: { allOf: [{ $ref: '#/components/schemas/Pet' }, { type: 'object' }] } } });
    const d = diffSpecs(
      side(spec({ type: 'object', properties: { a: { type: 'string' } } }, body())),
      side(spec({ type: 'object', properties: { a: { type: 'integer' } } }, body())),
    );
    expect(d.changes.map((c) => [c.id, c.field, c.schema])).toEqual([
      ['request-body-type-changed', 'p.a', undefined],
      ['response-type-changed', 'p.a', undefined],
    ]);
  });

  it('give the changes of the whole comparison, in its order, on random specs', () => {
    let seed = 20261126;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const NAMES = ['A', 'B', 'C', 'D'];
    // allOf and alternatives reference later names only: a cycle through allOf grows the merge exponentially.
    let after = 0;
    const ref = (any: boolean) => {
      const names = any ? NAMES : NAMES.slice(after);
      return names.length ? { $ref: `#/components/schemas/${pick(names)}` } : { type: 'string' };
    };
    const schema = (d: number, any = true): any => {
      if (d > 3 || rnd() < 0.2) return ref(any);
      const s: any = {};
      if (rnd() < 0.6) s.type = pick(['string', 'integer', 'number', 'object', ['string', 'null'], [{}]] as const);
      if (rnd() < 0.2) s.nullable = rnd() < 0.5;
      if (rnd() < 0.2) s.enum = ['x', 'y', 1, null].filter(() => rnd() < 0.6);
      if (rnd() < 0.15) s.maximum = pick([1, 5, {}]);
      if (rnd() < 0.1) s.format = pick(['date', { x: 1 }]);
      if (rnd() < 0.1) s.pattern = pick(['^a', {}]);
      if (rnd() < 0.1) s.readOnly = true;
      if (rnd() < 0.1) s.writeOnly = true;
      if (rnd() < 0.5) s.properties = Object.fromEntries(['p', 'q', 'r'].filter(() => rnd() < 0.6).map((n) => [n, schema(d + 1, any)]));
      if (rnd() < 0.3) s.required = ['p', 'q'].filter(() => rnd() < 0.5);
      if (rnd() < 0.15) s.items = schema(d + 1, any);
      if (rnd() < 0.1) s.additionalProperties = rnd() < 0.5 ? false : schema(d + 1, any);
      if (rnd() < 0.15) s.allOf = [schema(d + 1, false), schema(d + 1, false)];
      if (rnd() < 0.15) s[pick(['oneOf', 'anyOf'])] = [schema(d + 1, false), ref(false), { $ref: '#/x/C' }];
      return s;
    };
    const mutate = (x: any, p: number): any => {
      if (Array.isArray(x)) return x.map((v) => mutate(v, p));
      if (!x || typeof x !== 'object') return x;
      const out: any = {};
      for (const [k, v] of Object.entries(x)) {
        if (rnd() < p / 3) continue;
        out[k] = rnd() < p && typeof v !== 'object' ? pick([v, 'string', 3, true]) : mutate(v, p);
      }
      if (rnd() < p) out[pick(['type', 'maxLength', 'nullable'])] = pick(['string', 4, true]);
      return out;
    };
    const random = () => {
      const schemas = Object.fromEntries(
        NAMES.map((n, i) => {
          after = i + 1;
          return [n, schema(0, rnd() < 0.5)];
        }),
      );
      after = 0;
      const op = () => ({
        parameters: [{ name: 'q', in: 'query', schema: schema(1) }],
        requestBody: { content: { 'application/json': { schema: schema(0) } } },
        responses: { 200: { content: { 'application/json': { schema: schema(0) } } } },
      });
      return {
        openapi: '3.0.3',
        x: { C: { type: 'object', properties: { z: schema(2) } } },
        components: { schemas },
        paths: { '/a': { post: op() }, '/b': { get: op() } },
      };
    };
    let shortcuts = 0;
    for (let i = 0; i < 150; i++) {
      const a = random();
      const b = mutate(structuredClone(a), pick([0, 0.02, 0.1]));
      for (const [x, y] of [
        [a, b],
        [b, a],
      ]) {
        const same = vi.spyOn(proto, 'compareSame');
        const quick = diffSpecs(side(x), side(y));
        shortcuts += same.mock.calls.length;
        // The same diff with the shortcut replaced by the whole comparison (which it stands for).
        same.mockImplementation(function (this: any, ...args: unknown[]) {
          return this.compareResolved(...args);
        });
        expect(quick).toEqual(diffSpecs(side(x), side(y)));
        vi.restoreAllMocks();
      }
    }
    expect(shortcuts).toBeGreaterThan(1000);
  });
});
