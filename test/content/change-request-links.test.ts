import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// listChangeRequestLinks (0.146.0): the links of a change request's content; stats.broken
// .changeRequest counts those it broke (not already broken in its base); brokenContext=change-request
// lists only those among the broken items.

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer();
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
});
afterAll(() => s.stop());

async function edit(space: string, cr: string, changes: object[]) {
  const r = await s.api('POST', `/v1/spaces/${space}/change-requests/${cr}/content?compat=false`, { body: { changes } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

describe('listChangeRequestLinks', () => {
  it("lists the change request's links and counts the broken ones it introduced", async () => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Links' } })).body.id as string;
    const first = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: {} })).body;
    await edit(space, first.id, [{ operation: 'insert_page', title: 'Old', document: { markdown: 'See [old](./old-missing.md).' } }]);
    expect((await s.api('POST', `/v1/spaces/${space}/change-requests/${first.id}/merge`)).body.result).toBe('merge');

    const cr = (await s.api('POST', `/v1/spaces/${space}/change-requests`, { body: {} })).body;
    await edit(space, cr.id, [
      { operation: 'insert_page', title: 'New', document: { markdown: 'See [new](./new-missing.md) and [web](https://example.com).' } },
    ]);
    const all = await s.api('GET', `/v1/spaces/${space}/change-requests/${cr.number}/links`);
    expect(all.status).toBe(200);
    expect(all.body.stats).toEqual({ total: 3, broken: { total: 2, changeRequest: 1 } });
    const urls = (q: string) =>
      s.api('GET', `/v1/spaces/${space}/change-requests/${cr.id}/links?${q}`).then((r) => r.body.items.map((i: any) => i.targetReference.url).sort());
    expect(await urls('status=broken')).toEqual(['./new-missing.md', './old-missing.md']);
    expect(await urls('status=broken&brokenContext=change-request')).toEqual(['./new-missing.md']);
    expect((await s.api('GET', `/v1/spaces/${space}/links`)).body.stats).toEqual({ total: 1, broken: { total: 1 } });
    expect((await s.api('GET', `/v1/spaces/${space}/change-requests/99/links`)).status).toBe(404);
  });
});
