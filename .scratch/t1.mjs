import { validate } from '@readme/openapi-parser';
const bad = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/pets/{id}': { get: { parameters: [{name:'id', in:'path', required: true, schema:{type:'string'}}], responses: { '200': { descripton: 'ok' } } }, post: { operationId: 'a' , responses: {}}, put: {operationId: 'a', responses: {'200': {description: 'x'}}}} } };
console.log(JSON.stringify(await validate(structuredClone(bad), { validate: { errors: { colorize: false } } }), null, 2));
const bad2 = { swagger: '2.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { description: 'x', schema: { $ref: '#/definitions/Missing' } } } } } } };
console.log(JSON.stringify(await validate(bad2), null, 2));
const bad3 = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a/{x}': { get: { responses: { 200: { description: 'x' } } } } } };
console.log(JSON.stringify(await validate(bad3), null, 2));
try { console.log(JSON.stringify(await validate({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { $ref: 'other.yaml#/x' } } } } } }), null, 2)); } catch (e) { console.log('THROW', e.constructor.name, e.message) }
