import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_TOKEN, type TestServer } from '../helpers/server.js';

// Boundary: a query flag that narrows what a caller may do never fails open. The attack (issue
// 26, finding 8): `/mcp?read-only=1` hides write tools, but `?read-only`, `?read-only=`,
// `?read-only=yes`, `?READ-ONLY=1` and `?read-only=0&read-only=1` all let createSpace through.
// Now only 1|true|0|false are values, a repeated flag or a case variant of its name is a 400
// with the JSON-RPC error body, before any tool runs.

let s: TestServer;
let org: string;

beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s?.stop());

/** One JSON-RPC message to /mcp with the owner's token. */
async function mcp(search: string, message: object) {
  const res = await fetch(`${s.url}/mcp${search}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
  });
  return { status: res.status, body: await res.json() };
}

const createSpace = (title: string) => ({ method: 'tools/call', params: { name: 'createSpace', arguments: { organizationId: org, body: { title } } } });
const spaceTitles = async () => (await s.api('GET', `/v1/orgs/${org}/spaces`)).body.items.map((x: any) => x.title);

describe('/mcp boolean flags are strict', () => {
  for (const search of [
    '?read-only',
    '?read-only=',
    '?read-only=yes',
    '?read-only=TRUE',
    '?READ-ONLY=1',
    '?Read-Only=true',
    '?read-only=0&read-only=1',
    '?read-only=1&read-only=1',
    '?tools=spaces&tools=cr',
    '?TOOLS=spaces',
  ]) {
    it(`${search}: 400 with a JSON-RPC error naming the parameter; createSpace never runs`, async () => {
      const title = `Leak ${search}`;
      const r = await mcp(search, createSpace(title));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32602, data: { error: { code: 400 } } } });
      expect(r.body.error.message).toMatch(/read-only|tools/i);
      expect(await spaceTitles()).not.toContain(title);
    });
  }

  it('?read-only=1 and ?read-only=true hide writes; ?read-only=0, ?read-only=false and no flag allow them', async () => {
    for (const on of ['?read-only=1', '?read-only=true']) {
      const listed = await mcp(on, { method: 'tools/list' });
      expect(listed.status).toBe(200);
      expect(listed.body.result.tools.map((t: any) => t.name)).not.toContain('createSpace');
      const r = await mcp(on, createSpace(`Refused ${on}`));
      expect(r.body.error ?? r.body.result?.isError).toBeTruthy();
      expect(await spaceTitles()).not.toContain(`Refused ${on}`);
    }
    for (const off of ['?read-only=0', '?read-only=false', '']) {
      const title = `Made ${off || 'without a flag'}`;
      const r = await mcp(off, createSpace(title));
      expect(r.status).toBe(200);
      expect(r.body.result.isError, JSON.stringify(r.body)).toBeFalsy();
      expect(await spaceTitles()).toContain(title);
    }
  });
});
