import { $RefParser } from '@apidevtools/json-schema-ref-parser';
const p = new $RefParser();
try {
await p.bundle('docs-text:///openapi.json', {a: {$ref: 'common.yaml#/R'}, b: {$ref: 'https://example.invalid/x.yaml'}}, { continueOnError: true, resolve: { file: false, http: false, g: { order: 1, canRead: true, read: async (f) => { throw new Error('MYERR ' + f.url) } } } });
} catch (e) { console.log(e.constructor.name, e.message); for (const x of e.errors ?? []) console.log(x.constructor.name, Object.keys(x), x.message, x.path, x.source, x.ioErrorCode, x.cause?.message) }
