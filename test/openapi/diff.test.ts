import { describe, expect, it } from 'vitest';
import { diffSpecs, type Change } from '../../src/openapi/diff/classify.js';

// Each classification rule on a small spec: OLD is `base()`, NEW is `base()` changed by one edit.

function base(): any {
  return {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    security: [{ key: [] }],
    components: {
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, oauth: { type: 'oauth2', flows: {} } },
      schemas: {
        Pet: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'integer' },
            name: { type: 'string', maxLength: 50 },
            kind: { type: 'string', enum: ['cat', 'dog'] },
            tag: { type: 'string' },
            secret: { type: 'string', writeOnly: true },
          },
        },
        NewPet: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', maxLength: 50 },
            kind: { type: 'string', enum: ['cat', 'dog'] },
            tag: { type: 'string' },
            id: { type: 'integer', readOnly: true },
          },
        },
      },
    },
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } },
            '400': { description: 'bad' },
          },
        },
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
      '/pets/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } } },
        delete: { responses: { '204': { description: 'gone' } } },
      },
    },
  };
}

function diff(edit: (d: any) => void, old = base()): Change[] {
  const next = structuredClone(old);
  edit(next);
  return diffSpecs({ root: 'old.json', files: { 'old.json': old } }, { root: 'new.json', files: { 'new.json': next } }).changes;
}

/** The one change an edit makes, as `level id [operation] [where] [field]`. */
function one(edit: (d: any) => void): string {
  const changes = diff(edit);
  expect(changes.length, JSON.stringify(changes, null, 1)).toBe(1);
  return fmt(changes[0]!);
}

function fmt(c: Change): string {
  return [c.level, c.id, c.operation, c.where, c.field, c.operations?.join(', ')].filter(Boolean).join(' | ');
}

const pet = (d: any) => d.components.schemas.Pet;
const newPet = (d: any) => d.components.schemas.NewPet;

describe('openapi diff: classification rules', () => {
  it('identical specs: no change', () => {
    expect(diff(() => {})).toEqual([]);
  });

  it('a reference to nothing, the same on both sides of one file name, is no change (it threw reading its text)', () => {
    const spec = base();
    spec.paths['/pets'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Missing' };
    const side = () => ({ root: 'openapi.json', files: { 'openapi.json': structuredClone(spec) } });
    expect(diffSpecs(side(), side()).changes).toEqual([]);
  });

  it('operations and paths', () => {
    expect(one((d) => delete d.paths['/pets/{id}'].delete)).toBe('breaking | endpoint-removed | DELETE /pets/{id}');
    expect(diff((d) => delete d.paths['/pets/{id}']).map((c) => `${c.level} ${c.id} ${c.operation}`)).toEqual([
      'breaking path-removed DELETE /pets/{id}',
      'breaking path-removed GET /pets/{id}',
    ]);
    expect(one((d) => (d.paths['/pets/{id}'].put = { responses: { '200': { description: 'ok' } } }))).toBe('info | endpoint-added | PUT /pets/{id}');
    expect(one((d) => (d.paths['/pets'].get.deprecated = true))).toBe('info | endpoint-deprecated | GET /pets');
    expect(one((d) => (d.paths['/pets'].get.operationId = 'getPets'))).toBe('warning | operation-id-changed | GET /pets');
  });

  it('a renamed path parameter is the same operation', () => {
    expect(
      diff((d) => {
        d.paths['/pets/{petId}'] = d.paths['/pets/{id}'];
        delete d.paths['/pets/{id}'];
        d.paths['/pets/{petId}'].parameters[0].name = 'petId';
      }),
    ).toEqual([]);
  });

  it('parameters', () => {
    expect(one((d) => d.paths['/pets'].get.parameters.push({ name: 'owner', in: 'query', required: true, schema: { type: 'string' } }))).toBe(
      'breaking | new-required-request-parameter | GET /pets | parameter query owner',
    );
    expect(one((d) => d.paths['/pets'].get.parameters.push({ name: 'owner', in: 'query', schema: { type: 'string' } }))).toBe(
      'info | new-optional-request-parameter | GET /pets | parameter query owner',
    );
    expect(one((d) => (d.paths['/pets'].get.parameters = []))).toBe('breaking | request-parameter-removed | GET /pets | parameter query limit');
    expect(one((d) => (d.paths['/pets'].get.parameters[0].required = true))).toBe(
      'breaking | request-parameter-became-required | GET /pets | parameter query limit',
    );
    expect(one((d) => (d.paths['/pets'].get.parameters[0].schema.type = 'string'))).toBe(
      'breaking | request-parameter-type-changed | GET /pets | parameter query limit',
    );
    expect(one((d) => (d.paths['/pets'].get.parameters[0].schema.type = 'number'))).toBe(
      'info | request-parameter-type-changed | GET /pets | parameter query limit',
    );
    expect(one((d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 10))).toBe(
      'breaking | request-parameter-maximum-decreased | GET /pets | parameter query limit',
    );
    expect(one((d) => (d.paths['/pets'].get.parameters[0].schema.maximum = 1000))).toBe(
      'info | request-parameter-maximum-increased | GET /pets | parameter query limit',
    );
  });

  it('request bodies', () => {
    expect(one((d) => (newPet(d).required = ['name', 'kind']))).toBe(
      'breaking | request-property-became-required | schema NewPet (request) | kind | POST /pets',
    );
    expect(one((d) => (newPet(d).properties.owner = { type: 'string' }))).toBe(
      'info | request-new-optional-property | schema NewPet (request) | owner | POST /pets',
    );
    expect(one((d) => ((newPet(d).properties.owner = { type: 'string' }), newPet(d).required.push('owner')))).toBe(
      'breaking | request-new-required-property | schema NewPet (request) | owner | POST /pets',
    );
    expect(one((d) => delete newPet(d).properties.tag)).toBe('warning | request-property-removed | schema NewPet (request) | tag | POST /pets');
    expect(one((d) => (newPet(d).properties.kind.enum = ['cat']))).toBe('breaking | request-enum-value-removed | schema NewPet (request) | kind | POST /pets');
    expect(one((d) => (newPet(d).properties.kind.enum = ['cat', 'dog', 'bird']))).toBe(
      'info | request-enum-value-added | schema NewPet (request) | kind | POST /pets',
    );
    expect(one((d) => (newPet(d).properties.tag.enum = ['a']))).toBe('breaking | request-enum-added | schema NewPet (request) | tag | POST /pets');
    expect(one((d) => (newPet(d).properties.name.maxLength = 10))).toBe('breaking | request-maxLength-decreased | schema NewPet (request) | name | POST /pets');
    expect(one((d) => (newPet(d).properties.name.minLength = 3))).toBe('breaking | request-minLength-increased | schema NewPet (request) | name | POST /pets');
    expect(one((d) => (newPet(d).properties.tag.type = 'integer'))).toBe('breaking | request-type-changed | schema NewPet (request) | tag | POST /pets');
    expect(
      diff((d) => (d.paths['/pets'].post.requestBody.content = { 'application/xml': d.paths['/pets'].post.requestBody.content['application/json'] })).map(
        (c) => `${c.level} ${c.id}`,
      ),
    ).toEqual(['breaking request-body-media-type-removed', 'info request-body-media-type-added']);
    expect(one((d) => (d.paths['/pets/{id}'].delete.requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } }))).toBe(
      'breaking | new-required-request-body | DELETE /pets/{id} | request body',
    );
    expect(one((d) => delete d.paths['/pets'].post.requestBody)).toBe('warning | request-body-removed | POST /pets | request body');
    // A readOnly property is never sent: its removal from a request changes nothing.
    expect(diff((d) => delete newPet(d).properties.id)).toEqual([]);
  });

  it('responses: a change in a referenced schema is reported once, with the operations that reach it', () => {
    expect(one((d) => delete pet(d).properties.tag)).toBe(
      'breaking | response-property-removed | schema Pet (response) | tag | GET /pets, GET /pets/{id}, POST /pets',
    );
    // Inline schemas are reported at the operation.
    expect(one((d) => (d.paths['/pets'].get.responses['200'].content['application/json'].schema.type = 'object'))).toBe(
      'breaking | response-type-changed | GET /pets | response 200 application/json',
    );
    expect(one((d) => (d.paths['/pets/{id}'].get.responses['200'].content['application/json'].schema = { type: 'string' }))).toBe(
      'breaking | response-type-changed | GET /pets/{id} | response 200 application/json',
    );
    expect(diff((d) => (pet(d).required = ['id'])).every((c) => c.level === 'breaking' && c.id === 'response-property-became-optional')).toBe(true);
    expect(diff((d) => (pet(d).properties.kind.enum = ['cat', 'dog', 'bird']))[0]).toMatchObject({ level: 'warning', id: 'response-enum-value-added' });
    expect(diff((d) => (pet(d).properties.kind.enum = ['cat']))[0]).toMatchObject({ level: 'info', id: 'response-enum-value-removed' });
    expect(diff((d) => (pet(d).properties.tag.nullable = true))[0]).toMatchObject({ level: 'breaking', id: 'response-became-nullable' });
    expect(diff((d) => (pet(d).properties.owner = { type: 'string' }))[0]).toMatchObject({ level: 'info', id: 'response-property-added' });
    // A writeOnly property is never received.
    expect(diff((d) => delete pet(d).properties.secret)).toEqual([]);
    expect(one((d) => delete d.paths['/pets/{id}'].get.responses['200'])).toBe('breaking | response-success-status-removed | GET /pets/{id} | response 200');
    expect(one((d) => delete d.paths['/pets'].get.responses['400'])).toBe('warning | response-non-success-status-removed | GET /pets | response 400');
    expect(one((d) => (d.paths['/pets'].get.responses['404'] = { description: 'none' }))).toBe(
      'info | response-non-success-status-added | GET /pets | response 404',
    );
    expect(one((d) => (d.paths['/pets/{id}'].get.responses['200'].content = {}))).toBe(
      'breaking | response-media-type-removed | GET /pets/{id} | response 200 application/json',
    );
  });

  it('security', () => {
    expect(one((d) => delete d.components.securitySchemes.oauth)).toBe('breaking | security-scheme-removed | security scheme oauth');
    expect(one((d) => (d.components.securitySchemes.key.in = 'query'))).toBe('breaking | security-scheme-changed | security scheme key');
    const moved = diff((d) => (d.security = [{ oauth: ['read'] }]));
    expect(new Set(moved.map((c) => `${c.level} ${c.id}`))).toEqual(new Set(['breaking security-requirement-removed', 'info security-requirement-added']));
    expect(diff((d) => (d.security = [{ key: [] }, { oauth: [] }])).every((c) => c.level === 'info' && c.id === 'security-requirement-added')).toBe(true);
    expect(one((d) => (d.paths['/pets'].get.security = [{ oauth: ['read'] }, { key: [] }]))).toBe('info | security-requirement-added | GET /pets | security');
    const open = base();
    delete open.security;
    expect(diff((d) => (d.security = [{ key: [] }]), open).every((c) => c.level === 'breaking' && c.id === 'security-added')).toBe(true);
  });

  it('recursive schemas terminate; references across files resolve', () => {
    const rec = base();
    rec.components.schemas.Pet.properties.parent = { $ref: '#/components/schemas/Pet' };
    expect(diff((d) => delete pet(d).properties.tag, rec).map(fmt)).toEqual([
      'breaking | response-property-removed | schema Pet (response) | tag | GET /pets, GET /pets/{id}, POST /pets',
    ]);
    const split = (tag: boolean) => ({
      root: 'api/root.json',
      files: {
        'api/root.json': {
          openapi: '3.1.0',
          info: { title: 'x', version: '1' },
          paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: 'schemas/a.json#/A' } } } } } } } },
        },
        'api/schemas/a.json': {
          A: { type: 'object', properties: { b: { $ref: '#/B' } } },
          B: { type: 'object', properties: tag ? { tag: { type: 'string' } } : {} },
        },
      },
    });
    expect(diffSpecs(split(true), split(false)).changes).toMatchObject([
      { id: 'response-property-removed', schema: 'api/schemas/a.json#/B', field: 'tag', operations: ['GET /a'] },
    ]);
  });

  it('Swagger 2.0: body parameters and response schemas', () => {
    const v2 = (required: string[]): any => ({
      swagger: '2.0',
      info: { title: 'x', version: '1' },
      definitions: { P: { type: 'object', required, properties: { a: { type: 'string' }, b: { type: 'string' } } } },
      paths: {
        '/p': {
          post: {
            parameters: [{ in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/P' } }],
            responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/P' } } },
          },
        },
      },
    });
    const changes = diffSpecs({ root: 'a', files: { a: v2(['a']) } }, { root: 'b', files: { b: v2(['a', 'b']) } }).changes;
    expect(changes.map((c) => `${c.level} ${c.id}`)).toEqual(['breaking request-property-became-required', 'info response-property-became-required']);
  });
});
