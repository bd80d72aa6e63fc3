import { validate } from '@readme/openapi-parser';
const api = { openapi: '3.0.3', info: { title: 'x', version: '1' }, components: { responses: { Bad: { descripton: 'no' } } }, paths: { '/pets/{id}': { get: { parameters: [{name:'id', in:'path', required: true, schema:{type:'string'}}], responses: { '200': { $ref: '#/components/responses/Bad' } } }, post: { operationId: 'a' , responses: {}}} } };
const r = await validate(api, { resolve: { external: false } });
console.log(r.errors.map(e => e.message).join('\n----\n'));
console.log(JSON.stringify(api.paths['/pets/{id}'].get.responses));
const lines = JSON.stringify(api, null, 2).split('\n');
console.log(lines.slice(15, 40).map((l, i) => (i + 16) + ' ' + l).join('\n'));
