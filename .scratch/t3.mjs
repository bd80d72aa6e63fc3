import { processSource } from '../dist/src/openapi/pipeline.js';
const ok = `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200': {description: ok}
x-lang: no
`;
let r = await processSource({ text: ok }); console.log(r.ok, r.ok ? r.filesystem : r.errors);
r = await processSource({ text: 'openapi: 3.0.3\ninfo: {title: x\n  bad: [' }); console.log(JSON.stringify(r));
r = await processSource({ text: '{"openapi": "3.0.3", "info": {"title": "x", "version": "1"},\n "paths": {"/a/{x}": {"get": {"responses": {"200": {"descripton": "no"}}}}}}' }); console.log(JSON.stringify(r, null, 1));
r = await processSource({ text: '{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": {"$ref": "common.yaml#/R"}}}}}}' }); console.log(JSON.stringify(r, null, 1));
r = await processSource({ text: '{"openapi": "3.0.3", "info": "x",' }); console.log(JSON.stringify(r, null, 1));
r = await processSource({ text: 'hello: world' }); console.log(JSON.stringify(r, null, 1));
r = await processSource({ url: 'http://127.0.0.1:1/x.yaml' }); console.log(JSON.stringify(r, null, 1));
r = await processSource({ url: 'http://localhost:1/x.yaml' }); console.log(JSON.stringify(r, null, 1));
process.env.DOCS_FETCH_ALLOW_PRIVATE='1';
r = await processSource({ url: 'http://localhost:1/x.yaml' }); console.log(JSON.stringify(r, null, 1));
