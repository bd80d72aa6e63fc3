// An OpenAPI document for the API reference tests: tags, a recursive schema, security, a
// request body, x-codeSamples, and hostile HTML in descriptions.

export const PETS = {
  openapi: '3.0.3',
  info: { title: 'Pet Store', version: '1.2.0', description: 'The **pet** API.' },
  servers: [{ url: 'https://api.pets.test/v1' }],
  tags: [{ name: 'Pets', description: 'Everything about pets.' }, { name: 'Store' }],
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'integer', format: 'int64', example: 7 },
          name: { type: 'string', description: 'The pet name. <script>alert(1)</script><img src=x onerror=alert(2)> [click](javascript:alert(3))' },
          parent: { $ref: '#/components/schemas/Pet' },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
          owner: {
            type: 'object',
            properties: { address: { type: 'object', properties: { city: { type: 'string', description: 'The city of the owner.' } } } },
          },
        },
      },
      Tag: { type: 'object', properties: { label: { type: 'string', enum: ['cute', 'big'] } } },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/pets/{petId}': {
      get: {
        tags: ['Pets'],
        operationId: 'getPet',
        summary: 'Get a pet',
        description: 'Returns one pet. <b onmouseover="alert(4)">bold</b>',
        parameters: [
          { name: 'petId', in: 'path', required: true, description: 'The pet id', schema: { type: 'integer' }, example: 42 },
          { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
        ],
        responses: {
          '200': { description: 'The pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
          '404': { description: 'No such pet' },
        },
      },
    },
    '/pets': {
      post: {
        tags: ['Pets'],
        operationId: 'createPet',
        summary: 'Create a pet',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'Created' } },
        'x-codeSamples': [{ lang: 'go', label: 'Go SDK', source: 'client.CreatePet(ctx, pet)' }],
      },
    },
    '/orders': { get: { tags: ['Store'], operationId: 'listOrders', summary: 'List orders', responses: { '200': { description: 'Orders' } } } },
  },
};

/** The same document with its server at `url` (a local server for Test it). */
export const petsAt = (url: string) => ({ ...PETS, servers: [{ url }] });
