import { processSource } from '../dist/src/openapi/pipeline.js';
import { validate } from '@readme/openapi-parser';
import { writeFileSync } from 'node:fs';
const paths = 1200;
const schemas = {}; const p = {};
for (let i = 0; i < paths; i++) { const name = `R${i}`; schemas[name] = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid', description: 'Unique identifier' }, parent: { $ref: `#/components/schemas/R${i % 20}` }, tags: { type: 'array', items: { type: 'string' } } } };
 p[`/r${i}/{id}`] = { parameters: [{ $ref: '#/components/parameters/Id' }], get: { operationId: 'g' + i, responses: { 200: { description: 'x', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } } } }; }
const doc = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: p, components: { schemas, parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } } } } };
const text = JSON.stringify(doc, null, 2); writeFileSync('/tmp/big8.json', text);
for (let k = 0; k < 3; k++) {
let t = performance.now(); await validate('/tmp/big8.json'); const a = performance.now() - t;
t = performance.now(); const r = await processSource({ text }); const b = performance.now() - t;
console.log('parser', a.toFixed(0), 'pipeline', b.toFixed(0), r.ok);
}
