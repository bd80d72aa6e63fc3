import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationSpec } from '../../src/contract/spec.js';
import { OPERATION_IDS } from '../../src/operations.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildWorld, type World } from '../helpers/world.js';
import { caseOrder, closeCaseServers, LEAST_ROLE, prepareCase, routeOf, type CaseCall } from './least-role.js';
import { sample, sampleNote } from '../helpers/sample.js';

// Authorization matrix, the "right role -> success" half (the refusals: authorization.test.ts).
// Every registered operation is called as a fresh user with the least role its entry in
// least-role.ts names, on one prepared world, and must answer a 2xx matching the contract; a
// fresh user with the role just below must be refused (403/404; 204 for a DELETE, which
// answers "nothing there" for what the caller cannot see) and change nothing the call needs.

let s: TestServer;
let world: World;

describe('authorization matrix: the least role succeeds, the role below does not', () => {
  beforeAll(async () => {
    s = await startServer({ allowPrivateTunnels: true }); // development tunnels on 127.0.0.1
    world = await buildWorld(s);
  }, 60_000);
  afterAll(async () => {
    closeCaseServers();
    await s?.stop();
  });

  it('has an entry for every registered operation, and none for an operation not served', () => {
    const missing = OPERATION_IDS.filter((id) => !LEAST_ROLE[id]);
    const stale = Object.keys(LEAST_ROLE).filter((id) => !OPERATION_IDS.includes(id));
    expect(missing, `add an entry to test/reliability/least-role.ts for: ${missing.join(', ')}`).toEqual([]);
    expect(stale, `entries for operations not registered: ${stale.join(', ')}`).toEqual([]);
  });

  it('answers 2xx to the least role and refuses the role below, for every operation', async () => {
    const problems: string[] = [];
    // npm test: a seeded sample of the operations; npm run test:full: every one.
    for (const operationId of sample(caseOrder(OPERATION_IDS), 30, 'least-role', { withPrevious: (id) => routeOf(id)[0] !== 'GET' })) {
      const c = LEAST_ROLE[operationId]!;
      let call: CaseCall;
      try {
        call = await prepareCase(s, world, operationId);
      } catch (err) {
        problems.push(`${operationId}: setup failed: ${(err as Error).message.split('\n')[0]}`);
        continue;
      }
      const { method, url, body, headers, me, lesser, lowerWho, w } = call;
      // s.api checks every answer against the contract (and throws on a mismatch).
      try {
        if (lesser) {
          const r = await s.api(method, url, { token: lesser.token, body, headers });
          const refused =
            r.status === 403 || r.status === 404 || (method === 'DELETE' && r.status === 204) || (c.sees && r.status === 200 && !c.sees(r.body, w));
          if (!refused)
            problems.push(`${operationId} as ${lowerWho} (below ${c.as}): ${method} ${url} -> ${r.status} ${JSON.stringify(r.body)?.slice(0, 200)}`);
        }
        const r = await s.api(method, url, { token: me.token, body, headers });
        if (r.status < 200 || r.status > 299)
          problems.push(`${operationId} as ${c.as}: ${method} ${url} -> ${r.status} ${JSON.stringify(r.body)?.slice(0, 200)}`);
        // A delete answers 205 when it deleted, 204 when there was nothing: the fixture must still
        // have been there (the refused call below did not delete it).
        else if (method === 'DELETE' && operationSpec(operationId).responses['205'] && r.status !== 205 && !c.nothingToDelete)
          problems.push(`${operationId} as ${c.as}: ${method} ${url} -> ${r.status}, not 205: nothing was deleted`);
        else if (c.sees && !c.sees(r.body, w))
          problems.push(`${operationId} as ${c.as}: ${method} ${url} -> ${r.status} without the world's item: ${JSON.stringify(r.body)?.slice(0, 200)}`);
      } catch (err) {
        problems.push(`${operationId}: ${(err as Error).message.split('\n').slice(0, 3).join(' ')}`);
      }
    }
    expect(problems, problems.join('\n') + `\n${sampleNote('least-role')}`).toEqual([]);
  }, 120_000); // ~200 operations, two callers each, every answer checked under both specs
});
