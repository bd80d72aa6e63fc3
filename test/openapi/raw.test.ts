import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingIdle } from '../../src/openapi/processor.js';
import { OpenapiVersions } from '../../src/openapi/tables.js';
import { docs } from '../helpers/cli.js';
import { addUser } from '../helpers/people.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { petstore } from './fixtures.js';

// getLatestOpenAPISpecVersionContentRaw (docs/manual/openapi.md#the-raw-source): the latest
// version's entrypoint exactly as submitted, with its format; 404 for a version made before the
// raw text was kept; read with the spec's own read rights.

let s: TestServer;
let org: string;
const o = () => `/v1/orgs/${org}/openapi`;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s?.stop());

describe('the raw source of the latest version', () => {
  it('is the YAML or JSON text exactly as it was put, comments and spacing kept', async () => {
    const yaml = `# The pet store, as written\n${petstore()}`;
    expect((await s.api('PUT', `${o()}/pets`, { body: { source: { text: yaml } } })).status).toBe(201);
    await processingIdle(s.ctx);
    const r = await s.api('GET', `${o()}/pets/versions/latest/content/raw`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toEqual({ text: yaml, format: 'yaml' });

    const json = '{ "openapi": "3.0.0",\n  "info": {"title": "J", "version": "1"}, "paths": {} }\n';
    expect((await s.api('PUT', `${o()}/pets`, { body: { source: { text: json } } })).status).toBe(200);
    await processingIdle(s.ctx);
    expect((await s.api('GET', `${o()}/pets/versions/latest/content/raw`)).body).toEqual({ text: json, format: 'json' });
  });

  it('the CLI prints the text byte for byte; --json the object', async () => {
    const env = { DOCS_API_URL: s.url, DOCS_TOKEN: s.token };
    const out = await docs(['openapi', 'raw', 'pets', '--org', org], env);
    expect([out.status, out.stdout]).toEqual([0, '{ "openapi": "3.0.0",\n  "info": {"title": "J", "version": "1"}, "paths": {} }\n']);
    expect((await docs(['openapi', 'raw', 'pets', '--org', org, '--json'], env)).json.format).toBe('json');
  });

  it('a version made before raw sources were kept, an unknown spec, an outsider: 404 with the reason', async () => {
    await s.api('PUT', `${o()}/legacy`, { body: { source: { text: petstore() } } });
    await processingIdle(s.ctx);
    // As a version written by an older build: no rawFormat on its row.
    await s.ctx.store.write((tx) => {
      for (const v of tx.all(OpenapiVersions)) if (v.organization === org) tx.put(OpenapiVersions, { ...v, rawFormat: undefined });
    });
    const legacy = await s.api('GET', `${o()}/legacy/versions/latest/content/raw`);
    expect([legacy.status, legacy.body.error.message]).toEqual([404, expect.stringContaining('has no raw source')]);
    expect((await s.api('GET', `${o()}/nope/versions/latest/content/raw`)).status).toBe(404);
    const stranger = await addUser(s.ctx);
    expect((await s.api('GET', `${o()}/pets/versions/latest/content/raw`, { token: stranger.token })).status).toBeGreaterThanOrEqual(403);
  });
});
