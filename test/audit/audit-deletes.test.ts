import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeSpace } from '../../src/space-purge.js';
import { Spaces } from '../../src/spaces/tables.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Audit events are kept in the shard their write rewrites (src/audit/record.ts), so that most
// writes add no file. A deleted thing's shard must still go with it: a write that deletes moves
// the rings kept where it deleted to the organization's log, and so does a space purged for good.
// (Deleting an OpenAPI spec removes its shard file: test/openapi/http.test.ts.)

let s: TestServer;
let org: string;
beforeAll(async () => {
  s = await startServer({ onDisk: true });
  org = (await s.api('GET', '/v1/orgs')).body.items[0].id;
}, 60_000);
afterAll(() => s?.stop());

const filesOf = (id: string) => readdirSync(join(s.dataDir!, 'store')).filter((f) => f.includes(id));

describe('audit rings and deletes', () => {
  it('a space purged for good leaves no file of its own; its events stay in the log', async () => {
    const space = (await s.api('POST', `/v1/orgs/${org}/spaces`, { body: { title: 'Short-lived' } })).body;
    expect((await s.api('POST', `/v1/spaces/${space.id}/comments`, { body: { body: { markdown: 'Hello.' } } })).status).toBeLessThan(300);
    expect(filesOf(space.id).length).toBeGreaterThan(0);
    await s.ctx.store.write((tx) => purgeSpace(tx, tx.get(Spaces, space.id)!));
    expect(filesOf(space.id)).toEqual([]);
    const events = (await s.api('GET', `/v1/orgs/${org}/audit-events`)).body.items as any[];
    expect(events.some((e) => e.action === 'space.created' && e.target?.id === space.id)).toBe(true);
  });
});
